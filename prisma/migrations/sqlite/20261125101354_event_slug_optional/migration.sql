-- A draft or pending event has no slug until it is published (WordPress gives a post name only then):
-- "slug" becomes optional; the unique index still holds for every slug given (NULLs never clash).
-- SQLite redefines the table to drop NOT NULL, which drops its triggers: they are recreated below,
-- exactly as 20261124021052_data_versions and 20261125004000_event_search define them. The search
-- index (EventSearch, keyed by the unchanged ids) needs no rebuild.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "status" TEXT NOT NULL DEFAULT 'publish',
    "authorId" INTEGER NOT NULL DEFAULT 0,
    "date" TEXT NOT NULL,
    "dateUtc" TEXT NOT NULL,
    "modified" TEXT NOT NULL,
    "modifiedUtc" TEXT NOT NULL,
    "slug" TEXT,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "excerpt" TEXT NOT NULL DEFAULT '',
    "password" TEXT NOT NULL DEFAULT '',
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "menuOrder" INTEGER NOT NULL DEFAULT 0,
    "imageId" INTEGER,
    "timezone" TEXT NOT NULL DEFAULT '',
    "timezoneAbbr" TEXT NOT NULL DEFAULT '',
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "startLocal" TEXT NOT NULL,
    "endLocal" TEXT NOT NULL,
    "startUtc" TEXT NOT NULL,
    "endUtc" TEXT NOT NULL,
    "cost" TEXT NOT NULL DEFAULT '[]',
    "currencySymbol" TEXT NOT NULL DEFAULT '',
    "currencyCode" TEXT NOT NULL DEFAULT '',
    "currencyPosition" TEXT NOT NULL DEFAULT '',
    "website" TEXT,
    "showMap" BOOLEAN,
    "showMapLink" BOOLEAN,
    "hideFromListings" BOOLEAN NOT NULL DEFAULT false,
    "featured" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Event_id_fkey" FOREIGN KEY ("id") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Event_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Attachment" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Event" ("allDay", "authorId", "content", "cost", "currencyCode", "currencyPosition", "currencySymbol", "date", "dateUtc", "endLocal", "endUtc", "excerpt", "featured", "hideFromListings", "id", "imageId", "menuOrder", "modified", "modifiedUtc", "parentId", "password", "showMap", "showMapLink", "slug", "startLocal", "startUtc", "status", "timezone", "timezoneAbbr", "title", "website") SELECT "allDay", "authorId", "content", "cost", "currencyCode", "currencyPosition", "currencySymbol", "date", "dateUtc", "endLocal", "endUtc", "excerpt", "featured", "hideFromListings", "id", "imageId", "menuOrder", "modified", "modifiedUtc", "parentId", "password", "showMap", "showMapLink", "slug", "startLocal", "startUtc", "status", "timezone", "timezoneAbbr", "title", "website" FROM "Event";
DROP TABLE "Event";
ALTER TABLE "new_Event" RENAME TO "Event";
CREATE UNIQUE INDEX "Event_slug_key" ON "Event"("slug");
CREATE INDEX "Event_startLocal_idx" ON "Event"("startLocal");
CREATE INDEX "Event_endLocal_idx" ON "Event"("endLocal");
CREATE INDEX "Event_status_idx" ON "Event"("status");
CREATE INDEX "Event_hideFromListings_status_startLocal_id_endLocal_startUtc_endUtc_idx" ON "Event"("hideFromListings", "status", "startLocal", "id", "endLocal", "startUtc", "endUtc");
-- Recreate the triggers the table redefinition dropped.
CREATE TRIGGER "Event_insert_bumps_calendar" AFTER INSERT ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_update_bumps_calendar" AFTER UPDATE ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_delete_bumps_calendar" AFTER DELETE ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_insert_indexes_search" AFTER INSERT ON "Event" BEGIN
  INSERT INTO "EventSearch" ("rowid", "title", "excerpt", "content") VALUES (new."id", new."title", new."excerpt", new."content");
END;
CREATE TRIGGER "Event_delete_indexes_search" AFTER DELETE ON "Event" BEGIN
  INSERT INTO "EventSearch" ("EventSearch", "rowid", "title", "excerpt", "content") VALUES ('delete', old."id", old."title", old."excerpt", old."content");
END;
CREATE TRIGGER "Event_update_indexes_search" AFTER UPDATE OF "title", "excerpt", "content" ON "Event" BEGIN
  INSERT INTO "EventSearch" ("EventSearch", "rowid", "title", "excerpt", "content") VALUES ('delete', old."id", old."title", old."excerpt", old."content");
  INSERT INTO "EventSearch" ("rowid", "title", "excerpt", "content") VALUES (new."id", new."title", new."excerpt", new."content");
END;
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
