-- CreateTable
CREATE TABLE "TaskTrace" (
    "runId" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskTrace_pkey" PRIMARY KEY ("runId")
);

-- AddForeignKey
ALTER TABLE "TaskTrace" ADD CONSTRAINT "TaskTrace_runId_fkey" FOREIGN KEY ("runId") REFERENCES "TaskRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
