-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "secrets" TEXT;
