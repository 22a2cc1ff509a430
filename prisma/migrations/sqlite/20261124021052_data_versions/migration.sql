-- CreateTable
CREATE TABLE "DataVersion" (
    "scope" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0
);

-- The calendar's version: every committed write to a calendar table bumps it. Row triggers, in the
-- writing transaction (SQLite has one writer at a time).
INSERT INTO "DataVersion" ("scope", "version") VALUES ('calendar', 1);
CREATE TRIGGER "Post_insert_bumps_calendar" AFTER INSERT ON "Post" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Post_update_bumps_calendar" AFTER UPDATE ON "Post" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Post_delete_bumps_calendar" AFTER DELETE ON "Post" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_insert_bumps_calendar" AFTER INSERT ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_update_bumps_calendar" AFTER UPDATE ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Event_delete_bumps_calendar" AFTER DELETE ON "Event" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Venue_insert_bumps_calendar" AFTER INSERT ON "Venue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Venue_update_bumps_calendar" AFTER UPDATE ON "Venue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Venue_delete_bumps_calendar" AFTER DELETE ON "Venue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Organizer_insert_bumps_calendar" AFTER INSERT ON "Organizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Organizer_update_bumps_calendar" AFTER UPDATE ON "Organizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Organizer_delete_bumps_calendar" AFTER DELETE ON "Organizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Attachment_insert_bumps_calendar" AFTER INSERT ON "Attachment" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Attachment_update_bumps_calendar" AFTER UPDATE ON "Attachment" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Attachment_delete_bumps_calendar" AFTER DELETE ON "Attachment" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Term_insert_bumps_calendar" AFTER INSERT ON "Term" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Term_update_bumps_calendar" AFTER UPDATE ON "Term" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "Term_delete_bumps_calendar" AFTER DELETE ON "Term" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventVenue_insert_bumps_calendar" AFTER INSERT ON "EventVenue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventVenue_update_bumps_calendar" AFTER UPDATE ON "EventVenue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventVenue_delete_bumps_calendar" AFTER DELETE ON "EventVenue" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventOrganizer_insert_bumps_calendar" AFTER INSERT ON "EventOrganizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventOrganizer_update_bumps_calendar" AFTER UPDATE ON "EventOrganizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventOrganizer_delete_bumps_calendar" AFTER DELETE ON "EventOrganizer" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventTerm_insert_bumps_calendar" AFTER INSERT ON "EventTerm" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventTerm_update_bumps_calendar" AFTER UPDATE ON "EventTerm" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "EventTerm_delete_bumps_calendar" AFTER DELETE ON "EventTerm" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "User_insert_bumps_calendar" AFTER INSERT ON "User" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "User_update_bumps_calendar" AFTER UPDATE ON "User" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
CREATE TRIGGER "User_delete_bumps_calendar" AFTER DELETE ON "User" BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = 'calendar'; END;
