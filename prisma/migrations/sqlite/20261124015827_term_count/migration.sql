-- AlterTable (added in place, rather than by rebuilding the table: that would drop the id sequence
-- and copy every row)
ALTER TABLE "Term" ADD COLUMN "count" INTEGER NOT NULL DEFAULT 0;

-- Backfill: published events per term, as every event write keeps it from now on.
UPDATE "Term" SET "count" = (
    SELECT COUNT(*) FROM "EventTerm" JOIN "Event" ON "Event"."id" = "EventTerm"."eventId"
    WHERE "EventTerm"."termId" = "Term"."id" AND "Event"."status" = 'publish'
);
