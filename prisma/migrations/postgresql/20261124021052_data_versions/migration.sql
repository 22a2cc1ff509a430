-- CreateTable
CREATE TABLE "DataVersion" (
    "scope" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DataVersion_pkey" PRIMARY KEY ("scope")
);

-- The calendar's version: every committed write to a calendar table bumps it. Constraint triggers
-- deferred to commit: the version row is locked last and only while committing, so writers never
-- wait on it while holding other locks (no deadlock with term or row locks), and readers that see
-- the new version also see the data it stands for.
INSERT INTO "DataVersion" ("scope", "version") VALUES ('calendar', 1);
-- The body is an E'' string whose semicolons are written \073: the migration runner splits scripts at every semicolon.
CREATE FUNCTION "bump_calendar_version"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "scope" = \'calendar\'\073 RETURN NULL\073 END';
CREATE CONSTRAINT TRIGGER "Post_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Post" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "Event_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Event" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "Venue_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Venue" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "Organizer_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Organizer" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "Attachment_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Attachment" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "Term_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "Term" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "EventVenue_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "EventVenue" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "EventOrganizer_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "EventOrganizer" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "EventTerm_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "EventTerm" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
CREATE CONSTRAINT TRIGGER "User_bumps_calendar" AFTER INSERT OR UPDATE OR DELETE ON "User" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_calendar_version"();
