-- A column with a default: added in place (no table copy).
ALTER TABLE "TaskStep" ADD COLUMN "reasoning" TEXT NOT NULL DEFAULT '';
