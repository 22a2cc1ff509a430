-- AlterTable
ALTER TABLE "TaskStep" ADD COLUMN     "locator" TEXT;
