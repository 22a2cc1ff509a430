-- AlterTable
ALTER TABLE "TaskStep" ADD COLUMN     "replayed" BOOLEAN NOT NULL DEFAULT false;
