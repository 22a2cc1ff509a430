-- CreateTable
CREATE TABLE "ImportSource" (
    "source" TEXT NOT NULL PRIMARY KEY,
    "changeCursor" TEXT NOT NULL DEFAULT '',
    "lastRunAt" DATETIME,
    "lastFullReadAt" DATETIME
);

-- AlterTable (columns added in place: the table is not redefined)
ALTER TABLE "ImportedRecord" ADD COLUMN "fingerprint" TEXT NOT NULL DEFAULT '';
ALTER TABLE "ImportedRecord" ADD COLUMN "seenBy" INTEGER NOT NULL DEFAULT 0;
