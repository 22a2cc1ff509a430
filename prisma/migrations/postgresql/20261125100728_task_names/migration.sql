-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "name" TEXT;
