-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "detached" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "recurrenceId" TEXT,
ADD COLUMN     "seriesId" INTEGER;

-- CreateTable
CREATE TABLE "EventSeries" (
    "id" SERIAL NOT NULL,
    "rule" TEXT NOT NULL,
    "exdates" TEXT NOT NULL DEFAULT '[]',
    "rdates" TEXT NOT NULL DEFAULT '[]',
    "timezone" TEXT NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "startLocal" TEXT NOT NULL,
    "duration" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "expandedUntil" TEXT NOT NULL DEFAULT '',
    "open" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "EventSeries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EventSeries_slug_key" ON "EventSeries"("slug");

-- CreateIndex
CREATE INDEX "EventSeries_open_expandedUntil_idx" ON "EventSeries"("open", "expandedUntil");

-- CreateIndex
CREATE UNIQUE INDEX "Event_seriesId_recurrenceId_key" ON "Event"("seriesId", "recurrenceId");

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "EventSeries"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A series' rule is calendar data: its changes move the version caches key on.
CREATE CONSTRAINT TRIGGER "EventSeries_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "EventSeries" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
