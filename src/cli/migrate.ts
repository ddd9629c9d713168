import { runCommand } from './context.ts';

// Opening the database runs the migrations; this command only reports.
await runCommand(async ({ database }) => {
  console.log(`schema up to date (${database.mode} mode)`);
});
