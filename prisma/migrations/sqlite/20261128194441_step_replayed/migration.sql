-- AlterTable (a column added in place: copying the table would rewrite every stored screenshot)
ALTER TABLE "TaskStep" ADD COLUMN "replayed" BOOLEAN NOT NULL DEFAULT false;
