// The explorer page: asks POST /v1/ask and renders the answer, the map, the candidates, the scatter,
// the recommended tools and workflow, a clarification prompt and the SQL.
import { initialLang, STRINGS } from './i18n.js';
import { ExplorerMap, optionLetter } from './map.js';
import { scatterSvg } from './scatter.js';
import { areaLabel, escapeHtml, formatDistance, formatParameters, formatScore, questionWithChoice, rankColour, searchAreas } from './util.js';

const $ = (id) => document.getElementById(id);

const state = {
  lang: initialLang(safeStorage('get', 'srag-lang'), navigator.languages ?? [navigator.language]),
  response: null,
  question: '',
  selected: -1,
  map: null,
  asking: null,
  /** The spatial functions' search areas and labels, from GET /web/config. */
  functions: {},
};

const strings = () => STRINGS[state.lang];

function safeStorage(op, key, value) {
  try {
    return op === 'get' ? localStorage.getItem(key) : localStorage.setItem(key, value);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Language

function applyLanguage() {
  const s = strings();
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = s.title;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const key = el.dataset.i18n;
    if (el.id === 'answer' && el.dataset.state !== 'idle') continue;
    if (typeof s[key] === 'string') el.textContent = s[key];
  }
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = s[el.dataset.i18nPlaceholder];
  const toggle = $('lang-toggle');
  toggle.textContent = s.langToggle;
  toggle.lang = state.lang === 'zh' ? 'en' : 'zh-CN';
  toggle.setAttribute('aria-label', s.langToggleLabel);
  $('ask-button').textContent = state.asking ? s.asking : s.ask;
  state.map?.relabel();
  if (state.response) render(state.response, { refit: false });
}

// The examples come from the service (GET /web/examples): questions made from the data it holds, each
// checked to answer.
async function loadExamples() {
  try {
    const response = await fetch('/web/examples');
    if (response.ok) renderExamples((await response.json()).examples ?? []);
  } catch (error) {
    console.warn(error);
  }
}

function renderExamples(examples) {
  const list = $('examples');
  list.innerHTML = '';
  for (const example of examples) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'chip';
    button.lang = example.lang === 'zh' ? 'zh-CN' : 'en';
    button.textContent = example.question;
    button.addEventListener('click', () => {
      $('question').value = example.question;
      void ask(example.question);
    });
    li.append(button);
    list.append(li);
  }
}

// ---------------------------------------------------------------------------------------------------
// Asking

async function ask(question) {
  const s = strings();
  question = question.trim();
  if (!question) {
    $('question').focus();
    return;
  }
  state.asking?.abort();
  const abort = new AbortController();
  state.asking = abort;
  state.question = question;
  const url = new URL(location.href);
  url.searchParams.set('q', question);
  history.replaceState(null, '', url);

  $('error').hidden = true;
  $('status').textContent = s.asking;
  $('ask-button').textContent = s.asking;
  $('ask-button').disabled = true;
  $('results').setAttribute('aria-busy', 'true');
  $('answer').dataset.state = 'asking';
  try {
    const response = await fetch('/v1/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ question, k: Number($('k').value) || 5 }),
      signal: abort.signal,
    });
    const body = await response.json().catch(() => null);
    if (abort.signal.aborted) return;
    if (!response.ok || !body) {
      showError(body);
      return;
    }
    state.response = body;
    state.selected = -1;
    render(body, { refit: true });
    $('status').textContent = body.clarification ? s.clarification : s.matches(body.candidates?.length ?? 0);
    if (body.clarification) $('clarification').focus();
  } catch (error) {
    if (abort.signal.aborted) return;
    showError(null, error);
  } finally {
    if (state.asking === abort) {
      state.asking = null;
      $('ask-button').disabled = false;
      $('ask-button').textContent = strings().ask;
      $('results').removeAttribute('aria-busy');
    }
  }
}

function showError(problem, error) {
  const s = strings();
  const box = $('error');
  const fields = (problem?.errors ?? []).map((e) => `<li><code>${escapeHtml(e.field)}</code>: ${escapeHtml(e.message)}</li>`).join('');
  const detail = problem ? problem.detail || problem.title || '' : s.networkError;
  box.innerHTML = `<strong>${escapeHtml(s.error)}</strong>${detail ? `: ${escapeHtml(detail)}` : ''}${fields ? `<ul>${fields}</ul>` : ''}`;
  box.hidden = false;
  $('status').textContent = '';
  $('answer').dataset.state = 'error';
  if (error) console.warn(error);
}

// ---------------------------------------------------------------------------------------------------
// Rendering a response

function render(response, { refit }) {
  const answer = $('answer');
  answer.textContent = response.answer ?? '';
  answer.dataset.state = response.clarification ? 'clarification' : 'answered';
  answer.lang = response.plan?.lang === 'zh' ? 'zh-CN' : 'en';

  renderMeta(response);
  renderClarification(response);
  renderCandidates(response);
  renderScatter(response);
  renderTools(response);
  renderSql(response);

  const areas = searchAreas(response.plan, response.reference, response.candidates ?? [], state.functions);
  $('legend-area').textContent = areas.length ? ` — ${areas.map((a) => areaLabel(a, state.functions, state.lang)).join(', ')}` : '';
  if (refit) showOnMap(response);
  if (state.selected >= 0) select(state.selected, { pan: false });
}

function renderMeta(response) {
  const s = strings();
  const parts = [];
  if (response.planner) parts.push(`${s.planner}: ${response.planner}${response.plannerFallback ? ` (${s.fallback})` : ''}`);
  if (response.tradeOff) {
    parts.push(
      `${s.tradeOff}: ${s.spatialWeight} ${response.tradeOff.spatialWeight} / ${s.semanticWeight} ${response.tradeOff.semanticWeight}`,
    );
  }
  // Who ordered the answer: the language model (its reasons are on each candidate) or the rule trade-off.
  if (response.rerank) parts.push(`${s.rankedBy}: ${response.rerank.by === 'llm' ? s.rankedByModel : s.rankedByRules}${response.rerank.fallbackReason ? ` (${s.fallback})` : ''}`);
  if (typeof response.timingsMs?.total === 'number') parts.push(`${s.total} ${Math.round(response.timingsMs.total)} ms`);
  const meta = $('meta');
  meta.textContent = parts.join(' · ');
  meta.title = [response.tradeOff?.reason, response.rerank?.fallbackReason].filter(Boolean).join('\n');
}

function renderClarification(response) {
  const s = strings();
  const box = $('clarification');
  const clarification = response.clarification;
  if (!clarification) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $('clarification-question').textContent = clarification.question ?? '';
  const list = $('clarification-options');
  list.innerHTML = '';
  const options = clarification.options ?? [];
  if (options.length === 0) {
    const li = document.createElement('li');
    li.className = 'help';
    li.textContent = s.noOptions;
    list.append(li);
    return;
  }
  options.forEach((option, i) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'option';
    button.dataset.name = option.name;
    button.innerHTML =
      `<span class="option-letter" aria-hidden="true">${optionLetter(i)}</span>` +
      `<span class="option-name">${escapeHtml(option.name)}</span>${option.hint ? ` <span class="option-hint">${escapeHtml(option.hint)}</span>` : ''}`;
    button.addEventListener('click', () => chooseOption(clarification, option));
    li.append(button);
    list.append(li);
  });
}

/** Asks again with the chosen place's name in place of the ambiguous reference. */
function chooseOption(clarification, option) {
  const next = questionWithChoice(state.question, clarification.reference ?? '', option.name);
  $('question').value = next;
  void ask(next);
}

function showOnMap(response) {
  if (!state.map) return;
  if (response.clarification) state.map.showOptions(response.clarification.options ?? [], (option) => chooseOption(response.clarification, option));
  else state.map.showAnswer(response);
}

const COLUMNS = [
  ['rank', 'num'],
  ['name', ''],
  ['distance', 'num'],
  ['sparse', 'num'],
  ['denseSpatial', 'num'],
  ['semantic', 'num'],
  ['hybrid', 'num'],
  ['pareto', ''],
];

function renderCandidates(response) {
  const s = strings();
  const section = $('candidates-section');
  const candidates = response.candidates ?? [];
  section.hidden = Boolean(response.clarification) && candidates.length === 0;
  $('candidate-count').textContent = `(${candidates.length})`;
  const table = $('candidates');
  table.querySelector('caption').textContent = s.candidatesCaption;
  table.querySelector('thead tr').innerHTML = COLUMNS.map(([key, cls]) => `<th scope="col" class="${cls}">${escapeHtml(s[key])}</th>`).join('');
  const body = table.querySelector('tbody');
  body.innerHTML = '';
  if (candidates.length === 0) {
    body.innerHTML = `<tr><td colspan="${COLUMNS.length}" class="empty">${escapeHtml(s.noCandidates)}</td></tr>`;
  }
  candidates.forEach((c, i) => {
    const tr = document.createElement('tr');
    tr.dataset.index = String(i);
    tr.dataset.candidateId = String(c.id);
    tr.className = c.pareto ? 'is-pareto' : 'is-dominated';
    tr.setAttribute('aria-selected', String(i === state.selected));
    const colour = rankColour(i, candidates.length);
    tr.innerHTML =
      `<td class="num"><span class="dot${c.pareto ? ' solid' : ''}" style="--c:${colour}" aria-hidden="true"></span>${i + 1}</td>` +
      `<td><button type="button" class="link select-candidate" aria-pressed="${i === state.selected}">${escapeHtml(c.name)}</button>` +
      `${c.category ? `<span class="cat">${escapeHtml(c.category)}</span>` : ''}</td>` +
      `<td class="num">${escapeHtml(formatDistance(c.distanceM))}</td>` +
      `<td class="num">${formatScore(c.scores?.sparse)}</td>` +
      `<td class="num">${formatScore(c.scores?.denseSpatial)}</td>` +
      `<td class="num">${formatScore(c.scores?.semantic)}</td>` +
      `<td class="num strong">${formatScore(c.scores?.hybrid)}</td>` +
      `<td>${c.pareto ? `<span class="badge">★ ${escapeHtml(s.yes)}</span>` : `<span class="muted">${escapeHtml(s.no)}</span>`}</td>`;
    tr.querySelector('button').addEventListener('click', (event) => {
      event.stopPropagation();
      select(i, { pan: true });
    });
    tr.addEventListener('click', () => select(i, { pan: true }));
    body.append(tr);
  });
  renderDetail(response);
}

function renderDetail(response) {
  const s = strings();
  const detail = $('detail');
  const c = response.candidates?.[state.selected];
  if (!c) {
    detail.hidden = true;
    detail.innerHTML = '';
    return;
  }
  detail.hidden = false;
  detail.innerHTML =
    `<h3>${escapeHtml(s.selected)}: ${state.selected + 1}. ${escapeHtml(c.name)}</h3>` +
    `<p class="muted">${escapeHtml(c.category ?? '')} · ${escapeHtml(formatDistance(c.distanceM))} · ${escapeHtml(c.pareto ? s.onFront : s.offFront)}</p>` +
    (c.why ? `<p><strong>${escapeHtml(s.why)}:</strong> ${escapeHtml(c.why)}</p>` : '') +
    (c.rankReason ? `<p><strong>${escapeHtml(s.rankReason)}:</strong> ${escapeHtml(c.rankReason)}</p>` : '');
}

function renderScatter(response) {
  const section = $('scatter-section');
  const candidates = response.candidates ?? [];
  section.hidden = candidates.length === 0;
  if (section.hidden) return;
  const box = $('scatter');
  box.innerHTML = scatterSvg(response, strings(), state.selected);
  for (const point of box.querySelectorAll('.scatter-point')) {
    const index = Number(point.dataset.index);
    point.addEventListener('click', () => select(index, { pan: true }));
    point.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        select(index, { pan: true, focus: 'scatter' });
      }
    });
  }
}

function toolName(tools, id) {
  const tool = tools.find((t) => t && (t.id === id || t.toolId === id));
  return tool?.name ?? id;
}

function renderTools(response) {
  const s = strings();
  const tools = Array.isArray(response.tools) ? response.tools.filter((t) => t && typeof t === 'object') : [];
  const workflow = response.workflow && Array.isArray(response.workflow.steps) ? response.workflow : null;
  const section = $('tools-section');
  section.hidden = tools.length === 0 && !workflow;
  if (section.hidden) return;

  const list = $('tools');
  list.innerHTML = '';
  for (const tool of tools) {
    const li = document.createElement('li');
    li.className = 'tool';
    li.dataset.toolId = String(tool.id ?? '');
    const subtitle = [tool.catalog, tool.function].filter(Boolean).map(String).join(' · ');
    const missing = Array.isArray(tool.missingPrerequisites) ? tool.missingPrerequisites : [];
    li.innerHTML =
      `<div class="tool-head"><strong>${escapeHtml(tool.name ?? tool.id)}</strong>` +
      (typeof tool.score === 'number' ? `<span class="score">${escapeHtml(s.score)} ${formatScore(tool.score)}</span>` : '') +
      `</div>` +
      (subtitle ? `<div class="muted"><code>${escapeHtml(tool.id ?? '')}</code> · ${escapeHtml(subtitle)}</div>` : '') +
      (tool.why || tool.explanation ? `<p>${escapeHtml(tool.why ?? tool.explanation)}</p>` : '') +
      (missing.length ? `<p class="warn">${escapeHtml(s.missingPrerequisites)} ${missing.map((m) => escapeHtml(toolName(tools, m))).join(', ')}</p>` : '');
    list.append(li);
  }

  const block = $('workflow-block');
  block.hidden = !workflow;
  if (!workflow) return;
  const chain = $('workflow');
  chain.innerHTML = '';
  workflow.steps.forEach((step, i) => {
    const li = document.createElement('li');
    li.className = 'step';
    li.dataset.toolId = String(step.toolId ?? '');
    li.innerHTML =
      `<span class="step-no" aria-hidden="true">${i + 1}</span><span class="step-name">${escapeHtml(toolName(tools, step.toolId))}</span>` +
      (step.why ? `<span class="step-why">${escapeHtml(step.why)}</span>` : '');
    chain.append(li);
  });
  const notes = [];
  if (workflow.valid === false && workflow.problems?.length) {
    notes.push(`<p class="warn">${escapeHtml(s.workflowInvalid)}</p><ul>${workflow.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`);
  }
  if (workflow.assumptions?.length) {
    notes.push(`<p class="muted">${escapeHtml(s.assumptions)} ${workflow.assumptions.map((a) => escapeHtml(toolName(tools, a))).join(', ')}</p>`);
  }
  $('workflow-notes').innerHTML = notes.join('');
}

function renderSql(response) {
  const section = $('sql-section');
  section.hidden = !response.sql;
  if (section.hidden) return;
  $('sql').textContent = String(response.sql).replace(/^\n+/, '').replace(/^ {4}/gm, '');
  $('sql-parameters').textContent = formatParameters(response.sqlParameters).join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Selection: table row, map marker and scatter point stay in step

function select(index, { pan, focus } = {}) {
  const response = state.response;
  if (!response?.candidates?.[index]) return;
  state.selected = index;
  for (const tr of $('candidates').querySelectorAll('tbody tr[data-index]')) {
    const on = Number(tr.dataset.index) === index;
    tr.setAttribute('aria-selected', String(on));
    tr.querySelector('button')?.setAttribute('aria-pressed', String(on));
  }
  renderDetail(response);
  renderScatter(response);
  if (focus === 'scatter') $('scatter').querySelector(`.scatter-point[data-index="${index}"]`)?.focus();
  if (state.map) state.map.select(index, pan);
}

// ---------------------------------------------------------------------------------------------------
// Start

async function start() {
  void loadExamples();
  applyLanguage();

  $('lang-toggle').addEventListener('click', () => {
    state.lang = state.lang === 'en' ? 'zh' : 'en';
    safeStorage('set', 'srag-lang', state.lang);
    applyLanguage();
  });
  $('ask-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void ask($('question').value);
  });
  $('question').addEventListener('keydown', (event) => {
    // Enter asks; Shift+Enter makes a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void ask($('question').value);
    }
  });

  let config = { tiles: null, extent: null };
  try {
    const response = await fetch('/web/config');
    if (response.ok) config = await response.json();
  } catch (error) {
    console.warn(error);
  }
  state.functions = config.spatialFunctions ?? {};
  state.map = new ExplorerMap($('map'), {
    functions: () => state.functions,
    tiles: config.tiles,
    extent: config.extent,
    strings,
    onSelect: (index) => select(index, { pan: false }),
  });
  state.map.relabel();
  if (state.response) showOnMap(state.response);
  document.body.dataset.ready = 'true';

  const initial = new URL(location.href).searchParams.get('q');
  if (initial) {
    $('question').value = initial;
    void ask(initial);
  }
}

void start();
