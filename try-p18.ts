import { planOffline } from './src/planning/offline-planner.ts';
for (const q of process.argv.slice(2)) {
  const p = planOffline(q);
  console.log(q, '\n  ', JSON.stringify(p.references.map((x) => [x.id, x.text, x.kind])), JSON.stringify(p.constraints), '|', p.targets.concepts.join(','), '|', p.notes.join(' ; '));
}
