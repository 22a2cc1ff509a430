-- AlterTable
ALTER TABLE "ImportedRecord" ADD COLUMN     "fingerprint" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "seenBy" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ImportSource" (
    "source" TEXT NOT NULL,
    "changeCursor" TEXT NOT NULL DEFAULT '',
    "lastRunAt" TIMESTAMP(3),
    "lastFullReadAt" TIMESTAMP(3),

    CONSTRAINT "ImportSource_pkey" PRIMARY KEY ("source")
);
