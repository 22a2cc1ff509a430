-- AlterTable
ALTER TABLE "ImportedRecord" ADD COLUMN     "localPrint" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "CalendarSource" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "credentials" TEXT NOT NULL DEFAULT '',
    "refreshSeconds" INTEGER NOT NULL DEFAULT 0,
    "windowDaysBack" INTEGER NOT NULL DEFAULT 365,
    "windowDaysAhead" INTEGER NOT NULL DEFAULT 730,
    "defaultStatus" TEXT NOT NULL DEFAULT 'publish',
    "categories" TEXT NOT NULL DEFAULT '[]',
    "tags" TEXT NOT NULL DEFAULT '[]',
    "authority" TEXT NOT NULL DEFAULT 'overwrite',
    "trashRemoved" BOOLEAN NOT NULL DEFAULT true,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "nextRunAt" TIMESTAMP(3),
    "jobId" INTEGER,
    "lastJobId" INTEGER,
    "lastRunAt" TIMESTAMP(3),
    "lastOutcome" TEXT NOT NULL DEFAULT '',
    "lastCounts" TEXT NOT NULL DEFAULT '{}',
    "lastWarnings" TEXT NOT NULL DEFAULT '[]',
    "lastError" TEXT NOT NULL DEFAULT '',
    "failures" INTEGER NOT NULL DEFAULT 0,
    "userId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CalendarSource_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CalendarSource_nextRunAt_idx" ON "CalendarSource"("nextRunAt");

-- CreateIndex
CREATE UNIQUE INDEX "CalendarSource_kind_address_key" ON "CalendarSource"("kind", "address");
