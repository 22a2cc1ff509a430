-- DropIndex
DROP INDEX "Venue_status_idx";

-- DropIndex
DROP INDEX "Venue_dateUtc_idx";

-- DropIndex
DROP INDEX "Organizer_status_idx";

-- DropIndex
DROP INDEX "Organizer_dateUtc_idx";

-- CreateIndex
CREATE INDEX "Venue_status_dateUtc_id_idx" ON "Venue"("status", "dateUtc", "id");

-- CreateIndex
CREATE INDEX "Venue_dateUtc_id_idx" ON "Venue"("dateUtc", "id");

-- CreateIndex
CREATE INDEX "Organizer_status_dateUtc_id_idx" ON "Organizer"("status", "dateUtc", "id");

-- CreateIndex
CREATE INDEX "Organizer_dateUtc_id_idx" ON "Organizer"("dateUtc", "id");
