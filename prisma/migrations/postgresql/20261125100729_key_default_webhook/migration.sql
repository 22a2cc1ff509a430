-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "defaultWebhookUrl" TEXT;
