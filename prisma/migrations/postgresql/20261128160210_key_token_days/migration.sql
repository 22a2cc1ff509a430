-- CreateTable
CREATE TABLE "KeyTokenDay" (
    "keyId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KeyTokenDay_pkey" PRIMARY KEY ("keyId","day")
);

-- What the keys' runs used so far, by UTC day, so the budgets of the day of the upgrade hold.
INSERT INTO "KeyTokenDay" ("keyId", "day", "tokens")
SELECT t."keyId", to_char(s."createdAt", 'YYYY-MM-DD'), SUM(s."tokens")
FROM "TaskStep" s JOIN "TaskRun" r ON r."id" = s."runId" JOIN "Task" t ON t."id" = r."taskId"
WHERE t."keyId" IS NOT NULL AND s."tokens" > 0
GROUP BY 1, 2;
