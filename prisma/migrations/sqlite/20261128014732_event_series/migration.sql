-- Recurring events: a series holds the rule, its occurrences are events. Columns are added in
-- place (Prisma's generated script redefined "Event", which would drop its version and search
-- triggers); a column added with REFERENCES and a NULL default is allowed by SQLite.
CREATE TABLE "EventSeries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "rule" TEXT NOT NULL,
    "exdates" TEXT NOT NULL DEFAULT '[]',
    "rdates" TEXT NOT NULL DEFAULT '[]',
    "timezone" TEXT NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "startLocal" TEXT NOT NULL,
    "duration" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "expandedUntil" TEXT NOT NULL DEFAULT '',
    "open" BOOLEAN NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX "EventSeries_slug_key" ON "EventSeries"("slug");
CREATE INDEX "EventSeries_open_expandedUntil_idx" ON "EventSeries"("open", "expandedUntil");

ALTER TABLE "Event" ADD COLUMN "seriesId" INTEGER REFERENCES "EventSeries" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Event" ADD COLUMN "recurrenceId" TEXT;
ALTER TABLE "Event" ADD COLUMN "detached" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "Event_seriesId_recurrenceId_key" ON "Event"("seriesId", "recurrenceId");

-- A series' rule is calendar data: its changes move the version caches key on.
CREATE TRIGGER "EventSeries_insert_bumps_calendar" AFTER INSERT ON "EventSeries" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventSeries_update_bumps_calendar" AFTER UPDATE ON "EventSeries" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventSeries_delete_bumps_calendar" AFTER DELETE ON "EventSeries" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
