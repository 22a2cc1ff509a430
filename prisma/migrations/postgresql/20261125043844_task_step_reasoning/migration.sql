-- AlterTable
ALTER TABLE "TaskStep" ADD COLUMN     "reasoning" TEXT NOT NULL DEFAULT '';
