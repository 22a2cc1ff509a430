-- Whether an event is listed at all: an event saved with its end before its start has no occurrence
-- in the original (never listed) until its dates are saved right, and an update to such dates keeps
-- the occurrence it had (still listed). Events stored so far ending before they start were never
-- listed. The list index carries the flag, so the lists still visit no table.
-- DropIndex
DROP INDEX "Event_hideFromListings_status_startLocal_id_endLocal_startU_idx";

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "listed" BOOLEAN NOT NULL DEFAULT true;
UPDATE "Event" SET "listed" = false WHERE "endUtc" < "startUtc";

-- CreateIndex
CREATE INDEX "Event_hideFromListings_status_startLocal_id_endLocal_startU_idx" ON "Event"("hideFromListings", "status", "startLocal", "id", "endLocal", "startUtc", "endUtc", "listed");
