-- DropIndex
DROP INDEX "Event_hideFromListings_status_startLocal_id_endLocal_idx";

-- CreateIndex
CREATE INDEX "Event_hideFromListings_status_startLocal_id_endLocal_startUtc_endUtc_idx" ON "Event"("hideFromListings", "status", "startLocal", "id", "endLocal", "startUtc", "endUtc");
