// Cairn status page: reads the tracker's JSON API (the same one the CLI uses) and refreshes in place.
// The grid token, when the tracker asks for one, is kept in sessionStorage and sent as a header.
'use strict';

const STATES = {
  RUNNING: 'up, accepting new checkpoint data',
  FULL: 'up, serving data, but its donated space (or its writer slots) is used up',
  LOADED: 'up, but its disk is loaded by its owner; used only when better hosts are not available',
  BUSY: 'up and serving reads, but refusing new data (owner busy, paused, or outside donation hours)',
  DOWN: 'not heartbeating: switched off, evicted or unreachable; its data is repaired after the grace period',
};
const COLOURS = { R: '#2e7d32', F: '#6a1b9a', L: '#f9a825', B: '#ef6c00', D: '#c62828', '.': '#eeeeee', U: '#2e7d32' };
const REFRESH_MS = 2000;
const TIMELINE_MS = 30000;
const PAGE = 50; // peers per page of the table
const NODE_PAGE = 20; // nodes per page of the checkpoints section

let token = sessionStorage.getItem('cairn-token');
let sortKey = 'id';
let sortAsc = true;
let lastPeers = [];
let timelines = {};
let timelinesAt = 0;
let selected = null;
let eventsAfter = 0;
let events = [];
let page = 0;
let filter = '';
let nodePage = 0;
let nodeFilter = '';
let lastApps = [];

class Unauthorized extends Error {}

async function api(path) {
  const headers = token ? { Authorization: 'Bearer ' + token } : {};
  const r = await fetch('/api/v1/' + path, { headers, cache: 'no-store' });
  if (r.status === 401) throw new Unauthorized();
  if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
  return r.json();
}

function bytes(n) {
  if (n == null) return '–';
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + u[i];
}

function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return s + ' s ago';
  if (s < 3600) return Math.round(s / 60) + ' min ago';
  if (s < 86400) return Math.round(s / 3600) + ' h ago';
  return Math.round(s / 86400) + ' d ago';
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k === 'title') e.title = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function badge(state) {
  return el('span', { class: 'state ' + state, title: STATES[state] || state }, state);
}

function drawTimeline(canvas, states) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width;
  const h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  if (!states) return;
  const per = states.length / w;
  for (let x = 0; x < w; x++) {
    // the worst state in the pixel's slots, so short outages stay visible
    let c = '.';
    const from = Math.floor(x * per);
    const to = Math.max(from + 1, Math.floor((x + 1) * per));
    for (let i = from; i < to && i < states.length; i++) {
      const s = states[i];
      if (s === 'D' || c === '.' || (c === 'R' && s !== '.')) c = s;
      if (c === 'D') break;
    }
    ctx.fillStyle = COLOURS[c] || '#999';
    ctx.fillRect(x, 0, 1, h);
  }
}

function summary(peers, durability, apps) {
  const byState = {};
  let quota = 0, used = 0, free = 0;
  for (const p of peers) {
    byState[p.state] = (byState[p.state] || 0) + 1;
    if (p.state !== 'DOWN') { quota += p.quotaBytes; used += p.usedBytes; free += p.freeBytes; }
  }
  let versions = 0;
  for (const a of apps) for (const n of Object.values(a.nodes)) versions += n;
  const card = (title, big, ...lines) => el('div', { class: 'card' }, el('h3', {}, title), el('div', { class: 'big' }, big),
    ...lines.map(l => el('div', { class: 'muted' }, l)));
  const box = document.getElementById('summary');
  box.replaceChildren(
    card('Peers', peers.length, Object.keys(STATES).filter(s => byState[s]).map(s => byState[s] + ' ' + s).join(', ') || 'none yet'),
    card('Capacity (live peers)', bytes(quota), bytes(used) + ' used', bytes(free) + ' free'),
    card('Checkpoints', apps.length + (apps.length === 1 ? ' app' : ' apps'), versions + (versions === 1 ? ' version' : ' versions')),
    card('Durability', durability.chunks + ' chunks', durability.healthy + ' healthy, ' + durability.degraded + ' degraded, '
      + durability.lost + ' lost'),
    repairCard(card('Repair', durability.repairQueue + ' queued', durability.repairing + ' running',
      bytes(durability.repairedBytes) + ' repaired, ' + durability.failedRepairs + ' failed jobs', repairEta(durability)),
      durability.stalled));
  const h = document.getElementById('health');
  const live = peers.filter(p => p.state !== 'DOWN').length;
  if (durability.lost > 0) {
    h.className = 'health bad';
    h.textContent = 'Data at risk: ' + durability.lost + ' chunks have fewer than m live pieces';
  } else if (durability.degraded > 0) {
    h.className = 'health warn';
    h.textContent = 'Degraded: ' + durability.degraded + ' chunks are missing pieces (' + durability.repairQueue + ' repairs queued'
      + (durability.stalled && durability.stalled.length ? ', stalled: see Repair' : '') + '); all restorable';
  } else if (peers.length === 0) {
    h.className = 'health unknown';
    h.textContent = 'No peers have joined yet';
  } else {
    h.className = 'health ok';
    h.textContent = 'Healthy: ' + live + ' of ' + peers.length + ' peers up, every chunk has all its pieces';
  }
}

// What is left to rebuild and when it will be done at the last minute's pace (the tracker's own estimate).
function repairEta(d) {
  if (!d.backlogBytes) return 'nothing to rebuild';
  const left = bytes(d.backlogBytes) + ' to rebuild';
  if (d.etaSeconds == null) return left + ', no progress in the last minute';
  const s = d.etaSeconds;
  const eta = s < 90 ? s + ' s' : s < 5400 ? Math.round(s / 60) + ' min' : Math.round(s / 3600) + ' h';
  return left + ' at ' + bytes(d.repairBytesPerSecond) + '/s: done in about ' + eta;
}

// Why repair is not progressing (issue #17): one line per reason the tracker gives, with how many chunks it holds back.
function repairCard(card, stalled) {
  if (!stalled || stalled.length === 0) return card;
  card.classList.add('stalled');
  card.append(el('div', { class: 'stalled-title' }, 'Stalled'),
    el('ul', { class: 'stalled-reasons' }, ...stalled.map(s => el('li', { class: 'stalled-' + (s.kind || 'other') },
      el('strong', {}, s.chunks + (s.chunks === 1 ? ' chunk' : ' chunks')), ': ' + s.reason))));
  return card;
}

// The table's peers: sorted, filtered (id, address or state contain the filter), and the current page of them.
function visiblePeers() {
  const f = filter.trim().toLowerCase();
  const matching = [...lastPeers].sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    const c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
    return sortAsc ? c : -c;
  }).filter(p => !f || [p.id, p.address, p.state].some(v => String(v).toLowerCase().includes(f)));
  const pages = Math.max(1, Math.ceil(matching.length / PAGE));
  page = Math.min(page, pages - 1);
  return { matching, shown: matching.slice(page * PAGE, (page + 1) * PAGE), pages };
}

// Rows are updated in place (kept per peer id), so what a user hovers or clicks is not replaced every refresh.
function renderPeers() {
  const { matching, shown: peers, pages } = visiblePeers();
  const first = matching.length === 0 ? 0 : page * PAGE + 1;
  document.getElementById('peer-count').textContent = matching.length === 0
    ? (lastPeers.length === 0 ? 'no peers' : 'no peer matches "' + filter.trim() + '"')
    : 'peers ' + first + '-' + (first + peers.length - 1) + ' of ' + matching.length
      + (matching.length < lastPeers.length ? ' matching (' + lastPeers.length + ' in all)' : '');
  document.getElementById('peer-prev').disabled = page === 0;
  document.getElementById('peer-next').disabled = page >= pages - 1;
  const body = document.querySelector('#peers tbody');
  const existing = new Map([...body.querySelectorAll('tr[data-peer-id]')].map(r => [r.getAttribute('data-peer-id'), r]));
  for (const p of peers) {
    let row = existing.get(p.id);
    if (!row) {
      const canvas = el('canvas', { class: 'timeline', width: 240, height: 14, title: 'last 24 h: green running, yellow loaded, '
        + 'orange busy, purple full, red down, grey unknown' });
      row = el('tr', { class: 'peer', 'data-peer-id': p.id }, el('td', {}, p.id), el('td'), el('td'), el('td'),
        el('td', { class: 'traffic' }), el('td', { class: 'repair' }), el('td'), el('td', {}, canvas));
      row.addEventListener('click', () => showPeer(p.id));
    }
    existing.delete(p.id);
    const cells = row.children;
    row.setAttribute('data-state', p.state);
    cells[1].textContent = p.address;
    if (cells[2].getAttribute('data-shown') !== p.state + p.paused) {
      cells[2].replaceChildren(badge(p.state), p.paused ? ' (paused)' : '');
      cells[2].setAttribute('data-shown', p.state + p.paused);
    }
    cells[3].textContent = bytes(p.usedBytes) + ' / ' + bytes(p.quotaBytes);
    cells[4].textContent = trafficText(p.traffic);
    cells[4].title = p.traffic ? 'since the peer started: ' + bytes(p.traffic.in) + ' stored, ' + bytes(p.traffic.out) + ' served'
      : 'this peer does not report its traffic';
    cells[5].textContent = repairText(p.traffic);
    cells[5].title = p.traffic && p.traffic.repairLastDay != null
      ? 'bytes this donor read and sent rebuilding lost pieces over the last 24 hours' : 'this peer does not report its repair traffic';
    cells[6].textContent = ago(p.lastHeartbeat);
    cells[6].title = new Date(p.lastHeartbeat).toISOString();
    const canvas = cells[7].firstChild;
    const drawn = timelinesAt + (timelines[p.id] ? ':loaded' : ':none');
    if (canvas.getAttribute('data-drawn') !== drawn) {
      drawTimeline(canvas, timelines[p.id]);
      canvas.setAttribute('data-drawn', drawn);
    }
    body.appendChild(row); // moves an existing row into sort order
  }
  for (const gone of existing.values()) gone.remove();
}

// A donor's traffic: in (pieces stored) and out (pieces served) per second over its last heartbeat, and the totals.
function trafficText(t) {
  if (!t) return '-';
  return 'in ' + bytes(t.inPerSecond) + '/s, out ' + bytes(t.outPerSecond) + '/s (' + bytes(t.in) + ' / ' + bytes(t.out) + ')';
}

// A donor's repair traffic: what its repairs read and sent over the last 24 hours.
function repairText(t) {
  if (!t || t.repairLastDay == null) return '-';
  return bytes(t.repairLastDay) + ' / day';
}

async function showPeer(id) {
  selected = id;
  const box = document.getElementById('peer-detail');
  box.hidden = false;
  let h;
  let span = '14 days';
  try {
    h = await api('peers/' + encodeURIComponent(id) + '/history?window=14d');
  } catch (e) {
    // a tracker with very short history slots cannot answer 14 days in one call
    h = await api('peers/' + encodeURIComponent(id) + '/history?window=24h');
    span = '24 hours';
  }
  const compute = await api('compute').catch(() => ({})); // not shown to every reader
  const canvas = el('canvas', { class: 'timeline', width: 700, height: 20 });
  drawTimeline(canvas, h.states);
  const probs = Object.entries(h.probabilities).map(([s, p]) => s + ' ' + (100 * p).toFixed(1) + ' %').join(', ');
  const select = el('select', { id: 'compute-select' }, el('option', { value: '' }, 'choose a compute host…'),
    ...Object.keys(compute).map(c => el('option', { value: c }, c + (compute[c] ? ' (up)' : ' (down)'))));
  const crls = el('div', { id: 'crls' });
  select.addEventListener('change', async () => {
    if (!select.value) { crls.textContent = ''; return; }
    const a = await api('availability?storage=' + encodeURIComponent(id) + '&compute=' + encodeURIComponent(select.value)
      + '&window=' + (span === '14 days' ? '14d' : '24h'));
    const f = v => (v == null ? 'n/a' : v.toFixed(3));
    crls.textContent = 'CR ' + f(a.cr) + ', LI ' + f(a.li) + ', CRLS ' + f(a.crls) + ' over ' + a.slots + ' slots';
  });
  box.replaceChildren(el('h3', {}, 'Peer ' + id + ' — last ' + span), canvas,
    el('div', { class: 'muted' }, 'Time in each state: ' + probs),
    el('div', {}, 'CRLS against ', select), crls);
}

// The checkpoints section: one table of versions per node, NODE_PAGE nodes a page, filtered by app or node name.
// Versions are asked for only for the nodes shown.
async function renderCheckpoints(apps) {
  const box = document.getElementById('checkpoints');
  document.getElementById('node-tools').hidden = apps.length === 0;
  if (apps.length === 0) { box.replaceChildren(el('p', { class: 'muted' }, 'No checkpoints stored yet.')); return; }
  const f = nodeFilter.trim().toLowerCase();
  const all = apps.flatMap(a => Object.keys(a.nodes).sort().map(node => ({ app: a.app, node })));
  const matching = all.filter(n => !f || (n.app + '.' + n.node).toLowerCase().includes(f) || n.app.toLowerCase().includes(f));
  const pages = Math.max(1, Math.ceil(matching.length / NODE_PAGE));
  nodePage = Math.min(nodePage, pages - 1);
  const shown = matching.slice(nodePage * NODE_PAGE, (nodePage + 1) * NODE_PAGE);
  const first = matching.length === 0 ? 0 : nodePage * NODE_PAGE + 1;
  document.getElementById('node-count').textContent = matching.length === 0 ? 'no node matches "' + nodeFilter.trim() + '"'
    : 'nodes ' + first + '-' + (first + shown.length - 1) + ' of ' + matching.length
      + (matching.length < all.length ? ' matching (' + all.length + ' in all)' : '');
  document.getElementById('node-prev').disabled = nodePage === 0;
  document.getElementById('node-next').disabled = nodePage >= pages - 1;
  const versions = await Promise.all(shown.map(n => api('versions?app=' + encodeURIComponent(n.app) + '&node=' + encodeURIComponent(n.node))));
  const parts = [];
  let appBox = null;
  shown.forEach((n, i) => {
    if (!appBox || appBox.getAttribute('data-app') !== n.app) {
      appBox = el('details', { open: '', 'data-app': n.app }, el('summary', {}, n.app));
      parts.push(appBox);
    }
    const vs = versions[i];
    const table = el('table', {}, el('thead', {}, el('tr', {}, ...['Step', 'Created', 'Size', 'Stored', 'Dedup savings', 'Redundancy',
      'Status'].map(t => el('th', {}, t)))));
    const tb = el('tbody');
    for (const v of vs.slice().reverse()) {
      const saved = v.chunks > 0 ? (100 * (1 - v.newChunks / v.chunks)).toFixed(0) + ' % of chunks reused' : '–';
      const status = v.status === 'lost' ? el('span', { class: 'bad' }, 'NOT restorable') : v.status === 'degraded'
        ? 'restorable, pieces missing (repair after the grace period)' : 'fully restorable';
      tb.append(el('tr', { 'data-version': n.app + '.' + n.node + '.' + v.step }, el('td', {}, v.step),
        el('td', {}, new Date(v.createdAt).toLocaleString()), el('td', {}, bytes(v.size)), el('td', {}, bytes(v.storedBytes)),
        el('td', {}, saved), el('td', {}, v.weakest ? v.redundancy + ' (weakest ' + v.weakest + ')' : v.redundancy),
        el('td', {}, status)));
    }
    table.append(tb);
    appBox.append(el('details', { open: '', 'data-node': n.app + '.' + n.node },
      el('summary', {}, n.node + ' (' + vs.length + (vs.length === 1 ? ' version)' : ' versions)')), table));
  });
  box.replaceChildren(...parts);
}

function renderEvents() {
  const list = document.getElementById('events');
  list.replaceChildren(...events.slice(-50).reverse().map(e => el('li', {}, new Date(e.time).toLocaleTimeString() + ' ',
    el('span', { class: 'kind' }, e.kind), ' ' + e.subject + ': ' + e.message)));
}

// 24-hour timelines for the peers on the table's page: all of them every TIMELINE_MS, and any shown without one.
async function loadTimelines() {
  const stale = Date.now() - timelinesAt > TIMELINE_MS;
  const want = visiblePeers().shown.filter(p => stale || !timelines[p.id]);
  if (want.length === 0) return;
  if (stale) timelinesAt = Date.now();
  const hs = await Promise.all(want.map(p => api('peers/' + encodeURIComponent(p.id) + '/history?window=24h').catch(() => null)));
  want.forEach((p, i) => { if (hs[i]) timelines[p.id] = hs[i].states; });
}

// Donated and used space over the last 24 h (a sample per history slot), drawn with uPlot (served from the jar).
let capacityChart = null;
let capacityAt = 0;
async function renderCapacity() {
  if (capacityChart && Date.now() - capacityAt < 10000) return;
  capacityAt = Date.now();
  const c = await api('capacity?window=24h');
  const box = document.getElementById('capacity-chart');
  if (c.samples.length === 0) { box.textContent = 'No samples yet: one is taken every history slot.'; return; }
  const data = [c.samples.map(s => s.time / 1000), c.samples.map(s => s.usedBytes / 1e9), c.samples.map(s => s.quotaBytes / 1e9),
    c.samples.map(s => s.livePeers)];
  if (!capacityChart) {
    box.textContent = '';
    capacityChart = new uPlot({
      width: Math.max(400, Math.min(1000, box.clientWidth || 900)), height: 220,
      series: [{}, { label: 'used (GB)', stroke: '#1565c0', fill: 'rgba(21, 101, 192, 0.15)', scale: 'GB' },
        { label: 'donated by live peers (GB)', stroke: '#2e7d32', scale: 'GB' },
        { label: 'live peers', stroke: '#9e9e9e', dash: [4, 4], scale: 'peers' }],
      axes: [{}, { scale: 'GB', label: 'GB' }, { scale: 'peers', side: 1, label: 'peers', grid: { show: false } }],
    }, data, box);
  } else {
    capacityChart.setData(data);
  }
}

async function refresh() {
  try {
    const [peers, durability, apps, ev] = await Promise.all([api('peers'), api('durability'), api('apps'),
      api('events?after=' + eventsAfter)]);
    document.getElementById('token-form').hidden = true;
    document.getElementById('content').hidden = false;
    lastPeers = peers.map(p => ({ ...p, trafficTotal: p.traffic ? p.traffic.in + p.traffic.out : -1,
      repairLastDay: p.traffic && p.traffic.repairLastDay != null ? p.traffic.repairLastDay : -1 }));
    await loadTimelines();
    summary(peers, durability, apps);
    renderPeers();
    for (const e of ev.events) { events.push(e); eventsAfter = Math.max(eventsAfter, e.seq); }
    renderEvents();
    lastApps = apps;
    await renderCheckpoints(apps);
    await renderCapacity();
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  } catch (e) {
    if (e instanceof Unauthorized) {
      document.getElementById('content').hidden = true;
      document.getElementById('token-form').hidden = false;
      if (token) document.getElementById('token-error').textContent = 'That token was not accepted.';
    } else {
      document.getElementById('updated').textContent = 'tracker unreachable (' + e.message + '); retrying';
    }
  }
}

document.getElementById('token-entry').addEventListener('submit', ev => {
  ev.preventDefault();
  token = document.getElementById('token-input').value.trim();
  sessionStorage.setItem('cairn-token', token);
  refresh();
});

document.querySelectorAll('#peers th[data-key]').forEach(th => th.addEventListener('click', () => {
  const k = th.getAttribute('data-key');
  sortAsc = sortKey === k ? !sortAsc : true;
  sortKey = k;
  renderPeers();
}));

document.getElementById('peer-filter').addEventListener('input', ev => {
  filter = ev.target.value;
  page = 0;
  renderPeers();
  loadTimelines().then(renderPeers);
});
document.getElementById('peer-prev').addEventListener('click', () => { page = Math.max(0, page - 1); renderPeers(); loadTimelines().then(renderPeers); });
document.getElementById('peer-next').addEventListener('click', () => { page += 1; renderPeers(); loadTimelines().then(renderPeers); });

document.getElementById('node-filter').addEventListener('input', ev => {
  nodeFilter = ev.target.value;
  nodePage = 0;
  renderCheckpoints(lastApps);
});
document.getElementById('node-prev').addEventListener('click', () => { nodePage = Math.max(0, nodePage - 1); renderCheckpoints(lastApps); });
document.getElementById('node-next').addEventListener('click', () => { nodePage += 1; renderCheckpoints(lastApps); });

document.getElementById('legend').replaceChildren(...Object.entries(STATES).map(([s, d]) => el('span', {}, badge(s), ' ' + d)));

refresh();
setInterval(refresh, REFRESH_MS);
