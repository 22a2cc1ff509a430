-- DropIndex
DROP INDEX "Venue_status_dateUtc_id_idx";

-- DropIndex
DROP INDEX "Venue_dateUtc_id_idx";

-- DropIndex
DROP INDEX "Organizer_status_dateUtc_id_idx";

-- DropIndex
DROP INDEX "Organizer_dateUtc_id_idx";

-- CreateIndex
CREATE INDEX "Venue_status_date_id_idx" ON "Venue"("status", "date", "id");

-- CreateIndex
CREATE INDEX "Venue_date_id_idx" ON "Venue"("date", "id");

-- CreateIndex
CREATE INDEX "Organizer_status_date_id_idx" ON "Organizer"("status", "date", "id");

-- CreateIndex
CREATE INDEX "Organizer_date_id_idx" ON "Organizer"("date", "id");
