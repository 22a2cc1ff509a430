-- An event's own status (The Events Calendar's _tribe_events_status): scheduled, canceled or
-- postponed, with the reason shown beside it. The change log's trigger reads whole rows, so it
-- records changes to these columns as it is.
-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "eventStatus" TEXT NOT NULL DEFAULT 'scheduled',
ADD COLUMN     "eventStatusReason" TEXT NOT NULL DEFAULT '';
