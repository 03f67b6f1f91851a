/* rxtrace report: replays a recorded run call by call over its subscription graph.
 *
 * Reads the JSON that ReportModel (Sources/RxGraphviz/ReportModel.swift) puts in
 * #trace-data, and the graph's SVG inline in #graph (drawn nodes and edges carry their ids:
 * n5, c1_12, n5-forward-n3). Plain JavaScript: no library, nothing loaded from anywhere.
 *
 * The replay's position p runs from 0 (before the first call) to the number of calls. At p
 * the page shows everything recorded before the next call began: every record whose seq is
 * below limitOf(p). So the sink `run` makes is there at the `run` step, and a node a
 * `dispose` call disposes is grey at that step.
 */
(function () {
  'use strict';

  performance.mark('rxtrace-start');
  const data = JSON.parse(document.getElementById('trace-data').textContent);
  performance.mark('rxtrace-parsed');

  const $ = (id) => document.getElementById(id);
  const strings = data.strings;
  const str = (index) => (index >= 0 ? strings[index] : null);
  const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ESCAPES[c]);

  // Every word the page shows, in its language (ReportStrings, Sources/RxGraphviz): T.NAME.
  const T = JSON.parse(document.getElementById('ui-strings').textContent);
  const put = (template, values, escape) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? escape(values[name]) : whole));
  /** T's `template` as text, each {name} replaced by values[name]. */
  const fmt = (template, values = {}) => put(template, values, String);
  /** T's `template` as HTML: its own text escaped, the values (HTML already) put in as they are. */
  const fmtHTML = (template, values = {}) => put(esc(template), values, String);
  const count = (n, one, other) => fmt(n === 1 ? one : other, { n });
  const stepText = (p) => fmt(T.step, { n: p });
  const seqText = (seq) => fmt(T.seq, { n: seq });

  /** Index of the first element of the sorted `array` greater than `value`. */
  function upperBound(array, value) {
    let low = 0;
    let high = array.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (array[mid] <= value) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  // ---------------------------------------------------------------- nodes

  const N = data.nodes;
  const nodeCount = N.id.length;
  const indexOfNode = new Map();
  for (let i = 0; i < nodeCount; i++) indexOfNode.set(N.id[i], i);
  const SUBSCRIPTION_KINDS = new Set(['sink', 'observer', 'disposable', 'scheduled']);
  const OBSERVABLE_KINDS = new Set(['producer', 'observable', 'subject']);
  const kindOf = (i) => strings[N.kind[i]];
  const typeOf = (i) => strings[N.type[i]];

  function nodeName(id) {
    if (id === 0) return T.userCode;
    const i = indexOfNode.get(id);
    return i === undefined ? '#' + id : typeOf(i) + ' #' + id;
  }

  function nodeLink(id) {
    if (id === 0) return esc(T.userCode);
    const i = indexOfNode.get(id);
    const leaked = i !== undefined && N.leaked[i];
    return `<a class="node-link${leaked ? ' leak-link' : ''}" data-node="${id}">${esc(nodeName(id))}</a>`;
  }

  /** The seq at which node i turned grey in the graph view: disposed, or (for a worker) deinitialised. */
  function goneSeq(i) {
    let gone = N.disposed[i] > 0 ? N.disposed[i] : Infinity;
    if (N.deinitialized[i] > 0 && SUBSCRIPTION_KINDS.has(kindOf(i))) gone = Math.min(gone, N.deinitialized[i]);
    return gone;
  }

  // ---------------------------------------------------------------- calls

  const S = data.steps;
  const stepCount = S.seq.length;
  const limitOf = (p) => (p < stepCount ? S.seq[p] : Infinity);
  /** The position that shows the record made at `seq`. */
  const positionOf = (seq) => upperBound(S.seq, seq);

  const CALL_GROUPS = {
    subscribe: 'subscribing', schedule: 'subscribing', enqueue: 'subscribing', dequeue: 'subscribing',
    run: 'building', init: 'building', handler: 'building', setSinkAndSubscription: 'building',
    on: 'delivering', forwardOn: 'delivering', onCore: 'delivering',
    dispose: 'disposing',
  };

  // The subscription each call works for: that of its callee, else its caller, else the
  // nearest call before it that has one (a producer's `run` of itself belongs to the
  // subscription being made).
  const stepSubscription = new Int32Array(stepCount);
  {
    let last = 0;
    for (let k = 0; k < stepCount; k++) {
      const to = indexOfNode.get(S.to[k]);
      const from = indexOfNode.get(S.from[k]);
      let s = to !== undefined ? N.subscription[to] : 0;
      if (s === 0 && from !== undefined) s = N.subscription[from];
      if (s === 0) s = last;
      stepSubscription[k] = s;
      last = s;
    }
    const first = stepSubscription.find((s) => s > 0) || 0;
    for (let k = 0; k < stepCount && stepSubscription[k] === 0; k++) stepSubscription[k] = first;
  }

  // ---------------------------------------------------------------- events

  const E = data.events;
  const eventCount = E.seq.length;
  const eventsOfNode = new Map();
  for (let k = 0; k < eventCount; k++) {
    const list = eventsOfNode.get(E.node[k]);
    if (list) list.push(k);
    else eventsOfNode.set(E.node[k], [k]);
  }

  function eventText(k) {
    const kind = strings[E.kind[k]];
    const value = str(E.value[k]);
    return kind === 'completed' ? 'completed' : `${kind}(${value === null ? '' : value})`;
  }

  /** A recording's start (ISO 8601, UTC) as the page's language writes a date. */
  function formatDate(iso) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(iso);
    return m ? fmt(T.date, { y: m[1], mo: m[2], d: m[3], h: m[4], mi: m[5], s: m[6] }) : iso;
  }

  function formatTime(time) {
    if (E.virtualTime) return String(time);
    return fmt(T.seconds, { t: time.toFixed(6) });
  }

  // ---------------------------------------------------------------- the graph

  const G = data.graph;
  const svg = document.querySelector('#graph > svg');
  const drawnCount = svg ? G.svg.length : 0;
  const drawnElements = [];
  const bornAt = new Float64Array(drawnCount).fill(Infinity);
  const goneAt = new Float64Array(drawnCount).fill(-Infinity);
  const membersOf = [];
  for (let d = 0; d < drawnCount; d++) {
    drawnElements.push(document.getElementById(G.svg[d]));
    membersOf.push([]);
  }
  for (let i = 0; i < nodeCount; i++) {
    const d = N.drawn[i];
    if (d >= 0 && d < drawnCount) membersOf[d].push(i);
  }
  const drawnIndex = new Map();
  for (let d = 0; d < drawnCount; d++) {
    drawnIndex.set(G.svg[d], d);
    const members = membersOf[d];
    // As the graph view colours a node: by its workers when it has any.
    const workers = members.filter((i) => SUBSCRIPTION_KINDS.has(kindOf(i)));
    const considered = workers.length > 0 ? workers : members;
    for (const i of members) bornAt[d] = Math.min(bornAt[d], N.created[i]);
    for (const i of considered) goneAt[d] = Math.max(goneAt[d], goneSeq(i));
    if (members.some((i) => N.leaked[i])) goneAt[d] = Infinity;
    const element = drawnElements[d];
    if (element && members.length > 0 && members.every((i) => OBSERVABLE_KINDS.has(kindOf(i)))) {
      element.classList.add('rx-observable');
    }
  }
  const drawnOf = (id) => {
    const i = indexOfNode.get(id);
    return i === undefined || N.drawn[i] >= drawnCount ? -1 : N.drawn[i];
  };

  const edgeElements = drawnCount > 0 ? G.edgeID.map((id) => document.getElementById(id)) : [];
  const edgesBetween = new Map();
  for (let e = 0; e < edgeElements.length; e++) {
    const a = G.edgeFrom[e];
    const b = G.edgeTo[e];
    const key = a < b ? a + '|' + b : b + '|' + a;
    if (!edgesBetween.has(key)) edgesBetween.set(key, []);
    edgesBetween.get(key).push(e);
  }

  // 0: not born yet, 1: alive, 2: disposed (or gone).
  const drawnState = new Int8Array(drawnCount).fill(-1);
  const edgeUnborn = new Int8Array(edgeElements.length).fill(-1);

  function applyGraphState(limit) {
    for (let d = 0; d < drawnCount; d++) {
      const state = bornAt[d] < limit ? (goneAt[d] < limit ? 2 : 1) : 0;
      if (state === drawnState[d]) continue;
      drawnState[d] = state;
      const element = drawnElements[d];
      if (!element) continue;
      element.classList.toggle('rx-unborn', state === 0);
      // Grey in the picture because it was disposed by the end, but not yet at this step.
      element.classList.toggle('rx-revived', state !== 2 && goneAt[d] !== Infinity);
    }
    for (let e = 0; e < edgeElements.length; e++) {
      const unborn = drawnState[G.edgeFrom[e]] === 0 || drawnState[G.edgeTo[e]] === 0 ? 1 : 0;
      if (unborn === edgeUnborn[e]) continue;
      edgeUnborn[e] = unborn;
      if (edgeElements[e]) edgeElements[e].classList.toggle('rx-unborn', unborn === 1);
    }
  }

  let highlighted = [];
  function applyActive(p) {
    for (const element of highlighted) element.classList.remove('rx-active', 'rx-target');
    highlighted = [];
    if (p === 0 || drawnCount === 0) return;
    const from = drawnOf(S.from[p - 1]);
    const to = drawnOf(S.to[p - 1]);
    const mark = (element, name) => {
      if (!element) return;
      element.classList.add(name);
      highlighted.push(element);
    };
    const caller = from >= 0 ? from : to;
    if (caller >= 0) mark(drawnElements[caller], 'rx-active');
    // The replay follows the call: a caller out of sight is brought into view.
    if (caller >= 0) reveal(caller, true);
    if (to >= 0 && to !== caller) mark(drawnElements[to], 'rx-target');
    if (from >= 0 && to >= 0 && from !== to) {
      const key = from < to ? from + '|' + to : to + '|' + from;
      for (const e of edgesBetween.get(key) || []) mark(edgeElements[e], 'rx-active');
    }
  }

  // ---------------------------------------------------------------- pan and zoom

  const graphBox = $('graph');
  let base = null;
  let view = null;

  function setView(next) {
    view = next;
    svg.setAttribute('viewBox', `${next.x} ${next.y} ${next.w} ${next.h}`);
  }

  function fit() {
    if (base) setView({ ...base });
  }

  function clientToSvg(x, y) {
    const point = svg.createSVGPoint();
    point.x = x;
    point.y = y;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  function zoom(factor, center) {
    if (!view) return;
    const width = Math.min(Math.max(view.w * factor, base.w / 60), base.w * 4);
    const scale = width / view.w;
    const c = center || { x: view.x + view.w / 2, y: view.y + view.h / 2 };
    setView({ x: c.x - (c.x - view.x) * scale, y: c.y - (c.y - view.y) * scale, w: width, h: view.h * scale });
  }

  function boxOf(element) {
    const rect = element.getBoundingClientRect();
    const a = clientToSvg(rect.left, rect.top);
    const b = clientToSvg(rect.right, rect.bottom);
    return { x: a.x, y: a.y, w: b.x - a.x, h: b.y - a.y };
  }
  const boxes = [];

  /** Brings a drawn node into view, zooming in when it is too small to read (unless `panOnly`). */
  function reveal(d, panOnly) {
    const element = drawnElements[d];
    if (!element || !view) return;
    // In the graph's own coordinates, which panning and zooming never change.
    const box = boxes[d] || (boxes[d] = boxOf(element));
    if (!panOnly && (box.w / view.w) * graphBox.clientWidth < 40) {
      const width = Math.max(box.w * 10, base.w / 60);
      const scale = width / view.w;
      setView({ x: box.x + box.w / 2 - width / 2, y: box.y + box.h / 2 - (view.h * scale) / 2, w: width, h: view.h * scale });
      return;
    }
    const inside = box.x >= view.x && box.y >= view.y && box.x + box.w <= view.x + view.w && box.y + box.h <= view.y + view.h;
    if (!inside) setView({ ...view, x: box.x + box.w / 2 - view.w / 2, y: box.y + box.h / 2 - view.h / 2 });
  }

  if (svg) {
    const viewBox = svg.viewBox.baseVal;
    base = { x: viewBox.x, y: viewBox.y, w: viewBox.width, h: viewBox.height };
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    fit();

    graphBox.addEventListener('wheel', (event) => {
      event.preventDefault();
      zoom(Math.exp(event.deltaY * 0.0015), clientToSvg(event.clientX, event.clientY));
    }, { passive: false });

    let drag = null;
    graphBox.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, view: { ...view }, target: event.target, moved: false, id: event.pointerId };
    });
    graphBox.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!drag.moved) {
        drag.moved = true;
        graphBox.classList.add('dragging');
        graphBox.setPointerCapture(drag.id);
      }
      const scale = svg.getScreenCTM().a;
      setView({ ...drag.view, x: drag.view.x - dx / scale, y: drag.view.y - dy / scale });
    });
    const endDrag = (event) => {
      if (!drag) return;
      const { moved, target } = drag;
      drag = null;
      graphBox.classList.remove('dragging');
      if (moved || event.type !== 'pointerup') return;
      const node = target instanceof Element ? target.closest('g.node') : null;
      if (node && drawnIndex.has(node.id)) selectDrawn(drawnIndex.get(node.id), false);
    };
    graphBox.addEventListener('pointerup', endDrag);
    graphBox.addEventListener('pointercancel', endDrag);
    $('zoom-in').addEventListener('click', () => zoom(1 / 1.4));
    $('zoom-out').addEventListener('click', () => zoom(1.4));
    $('zoom-fit').addEventListener('click', fit);
  } else {
    for (const id of ['zoom-in', 'zoom-out', 'zoom-fit']) $(id).disabled = true;
  }

  // ---------------------------------------------------------------- header: facts, leaks, anomalies

  function renderHeader() {
    $('title').textContent = data.title;
    const facts = [
      count(nodeCount, T.nodesOne, T.nodesOther),
      count(data.subscriptions.length, T.subscriptionsOne, T.subscriptionsOther),
      fmt(T.calls, { n: stepCount }),
      fmt(T.events, { n: eventCount }),
    ];
    if (E.virtualTime) facts.push(T.virtualTime);
    const dropped = data.dropped;
    if (dropped.steps > 0) facts.push(fmt(T.droppedCalls, { n: dropped.steps }));
    if (dropped.events > 0) facts.push(fmt(T.droppedEvents, { n: dropped.events }));
    if (data.meta.started) facts.push(fmt(T.recorded, { date: formatDate(data.meta.started) }));
    $('facts').textContent = facts.join(' · ');

    const parts = [];
    const leakedCount = N.leaked.reduce((sum, leaked) => sum + (leaked ? 1 : 0), 0);
    const cut = data.meta.cut;
    if (cut) {
      parts.push(`<div class="alert cut" id="cut"><strong>${fmtHTML(T.cutTitle, { seq: esc(cut) })}</strong> — ${esc(T.cutText)}</div>`);
    }
    if (leakedCount > 0) {
      const roots = data.leakRoots;
      const counts = {
        nodes: esc(count(leakedCount, T.nodesOne, T.nodesOther)),
        roots: esc(count(roots.length, T.rootsOne, T.rootsOther)),
      };
      const title = fmtHTML(cut ? T.leakTitleAtCut : T.leakTitle, counts);
      const what = esc(cut ? T.leakWhatAtCut : T.leakWhat);
      let html = `<div class="alert leak" id="leaks"><strong>${title}</strong> — ${what}<ul>`;
      // Each node is linked once, under the first root that holds it (a root and its cycle are
      // held by no other root).
      const listed = new Set();
      for (const root of roots.slice(0, 20)) {
        const shown = new Set([root.node, ...root.cycle]);
        for (const id of listed) shown.add(id);
        const cycle = root.cycle.length > 0 ? fmtHTML(T.leakWith, { nodes: root.cycle.map(nodeLink).join(esc(T.listSeparator)) }) : '';
        const types = root.types.slice(0, 6).map((t) => `${esc(t.name)} ${t.count}`).join(esc(T.listSeparator));
        const sites = root.sites.slice(0, 4).map((t) => `<span class="site">${esc(t.name)}</span> (${t.count})`).join(esc(T.listSeparator));
        const rest = root.held.filter((id) => !shown.has(id));
        for (const id of [root.node, ...root.cycle, ...rest]) listed.add(id);
        const members = rest.slice(0, 12).map(nodeLink).join(esc(T.listSeparator));
        const more = rest.length > 12 ? ` <span class="more">${esc(fmt(T.andMore, { n: rest.length - 12 }))}</span>` : '';
        const site = `<span class="site">${esc(root.site || T.unknownSite)}</span>`;
        const cause = esc(T.causes[root.causeKind] || root.cause);
        const held = esc(count(root.held.length, T.nodesOne, T.nodesOther));
        html += `<li>${fmtHTML(T.leakRoot, { node: nodeLink(root.node), with: cycle, site, cause })}`
          + `<br>${fmtHTML(T.leakHolds, { nodes: held, types, sites })}${members ? ` — ${members}${more}` : ''}</li>`;
      }
      if (roots.length > 20) html += `<li class="more">${esc(fmt(T.andMoreRoots, { n: roots.length - 20 }))}</li>`;
      parts.push(html + '</ul></div>');
    } else {
      parts.push(`<div class="alert fine" id="leaks">${esc(T.noLeaks)}</div>`);
    }
    if (data.anomalies.length > 0) {
      let html = `<div class="alert anomaly" id="anomalies"><strong>${esc(fmt(T.anomaliesTitle, { n: data.anomalies.length }))}</strong><ul>`;
      for (const anomaly of data.anomalies.slice(0, 20)) {
        const p = positionOf(anomaly.seq);
        const step = `<a class="step-link" data-position="${p}">${esc(stepText(p))}</a>`;
        html += `<li>${fmtHTML(T.anomaly, { kind: esc(anomaly.kind), node: nodeLink(anomaly.node), step, detail: esc(anomaly.detail) })}</li>`;
      }
      if (data.anomalies.length > 20) html += `<li class="more">${esc(fmt(T.andMore, { n: data.anomalies.length - 20 }))}</li>`;
      parts.push(html + '</ul></div>');
    }
    $('alerts').innerHTML = parts.join('');
  }

  // ---------------------------------------------------------------- the current call

  function renderCall(p) {
    const box = $('call');
    box.className = '';
    if (stepCount === 0) {
      box.textContent = T.noCalls;
      return;
    }
    if (p === 0) {
      box.textContent = fmt(T.beforeFirst, { n: stepCount });
      return;
    }
    const k = p - 1;
    const call = strings[S.call[k]];
    const from = S.from[k];
    const to = S.to[k];
    const detail = str(S.detail[k]);
    // The scheduler is no node: the trampoline's steps name it first in their detail
    // ("CurrentThreadScheduler, 1 queued"), and it is their 0 end.
    const scheduler = (call === 'enqueue' || call === 'dequeue') && detail ? detail.split(', ')[0] : null;
    const caller = from === 0 && scheduler ? esc(scheduler) : nodeLink(from);
    const target = to === 0 && scheduler ? ` → ${esc(scheduler)}` : to === from || to === 0 ? '' : ` → ${nodeLink(to)}`;
    let html = `<span class="num">${p}</span> <span class="call-name">${esc(call)}</span> ${caller}${target}`;
    if (detail) html += ` <span class="detail">${esc(detail)}</span>`;
    const site = (id) => {
      const i = indexOfNode.get(id);
      return i === undefined ? null : str(N.site[i]);
    };
    const siteHTML = (id) => `<span class="site">${esc(site(id))}</span>`;
    let where;
    if (from !== 0) {
      where = fmtHTML(T.callerMadeAt, { node: esc(nodeName(from)), site: site(from) ? siteHTML(from) : esc(T.unknownSite) });
    } else {
      where = (scheduler ? fmtHTML(T.calledBy, { scheduler: esc(scheduler) }) : esc(T.calledFromUserCode))
        + (to !== 0 && site(to) ? fmtHTML(T.calleeMadeAt, { node: esc(nodeName(to)), site: siteHTML(to) }) : '');
    }
    html += `<span class="where">${where} · ${esc(seqText(S.seq[k]))}</span>`;
    box.innerHTML = html;
    box.className = CALL_GROUPS[call] || '';
  }

  // ---------------------------------------------------------------- marbles of the current subscription

  const MARBLE_COLUMNS = 30;
  const MARBLE_LANES = 14;
  const forwards = new Set();
  for (let e = 0; e < data.edges.from.length; e++) {
    if (strings[data.edges.relation[e]] === 'forward') forwards.add(data.edges.from[e] + '>' + data.edges.to[e]);
  }
  const subscriptionMarbles = new Map();

  /** The events of subscription s laid out in columns, as the marbles view lays them out. */
  function marblesOf(s) {
    if (subscriptionMarbles.has(s)) return subscriptionMarbles.get(s);
    const events = [];
    for (let k = 0; k < eventCount; k++) {
      const i = indexOfNode.get(E.node[k]);
      if (i !== undefined && N.subscription[i] === s) events.push(k);
    }
    const column = new Int32Array(events.length);
    const columnSeq = [];
    const columnLabel = [];
    if (E.virtualTime) {
      const times = Array.from(new Set(events.map((k) => E.time[k]))).sort((a, b) => a - b);
      const index = new Map(times.map((t, c) => [t, c]));
      events.forEach((k, n) => { column[n] = index.get(E.time[k]); });
      for (const t of times) { columnSeq.push(Infinity); columnLabel.push(String(t)); }
      events.forEach((k, n) => { columnSeq[column[n]] = Math.min(columnSeq[column[n]], E.seq[k]); });
    } else {
      // An event forwarded straight from the lane above shares its column.
      let current = -1;
      let used = new Set();
      let previous = null;
      events.forEach((k, n) => {
        const node = E.node[k];
        if (!(previous !== null && forwards.has(previous + '>' + node) && !used.has(node))) {
          current += 1;
          used = new Set();
          columnSeq.push(E.seq[k]);
          columnLabel.push(String(positionOf(E.seq[k])));
        }
        used.add(node);
        column[n] = current;
        previous = node;
      });
    }
    const firstIndex = new Map();
    events.forEach((k, n) => { if (!firstIndex.has(E.node[k])) firstIndex.set(E.node[k], n); });
    // Columns follow the events' order, except on a virtual clock that went back.
    const ordered = column.every((c, n) => n === 0 || column[n - 1] <= c);
    const result = { events, seqs: events.map((k) => E.seq[k]), column, columnSeq, columnLabel, firstIndex, ordered };
    subscriptionMarbles.set(s, result);
    return result;
  }

  /** How an event looks at this step: 'future' (not happened yet), 'now' (this call), or ''. */
  function eventState(seq, limit, stepSeq) {
    return seq >= limit ? 'future' : seq >= stepSeq ? 'now' : '';
  }

  function marbleHTML(k, state) {
    const kind = strings[E.kind[k]];
    const seq = E.seq[k];
    const title = esc(fmt(T.marbleTitle, { event: eventText(k), node: nodeName(E.node[k]), step: positionOf(seq), seq }));
    if (kind === 'completed') return `<span class="marble completed ${state}" data-seq="${seq}" title="${title}">|</span>`;
    const value = str(E.value[k]);
    const text = kind === 'error' ? '✕ ' + (value || 'error') : value === null ? '•' : value;
    return `<span class="marble ${kind} ${state}" data-seq="${seq}" title="${title}">${esc(text)}</span>`;
  }

  // The table is rebuilt only when the subscription or the window of columns changes; a step
  // within the window only restyles the marbles whose state changed.
  let marbleTable = null;

  function renderMarbles(p) {
    const box = $('marbles');
    const s = p > 0 ? stepSubscription[p - 1] : stepCount > 0 ? stepSubscription[0] : data.subscriptions.length > 0 ? 1 : 0;
    const info = data.subscriptions[s - 1];
    const m = info ? marblesOf(s) : null;
    if (!info || m.events.length === 0) {
      if (marbleTable && marbleTable.s === s) return;
      marbleTable = { s, start: 0, end: 0, marbles: [], states: [], columns: [] };
      $('marbles-title').innerHTML = info ? fmtHTML(T.marblesOf, { s, node: nodeLink(info.root) }) : '';
      box.innerHTML = `<p class="lane-note">${esc(info ? T.noEventsInSubscription : T.noSubscription)}</p>`;
      return;
    }
    const limit = limitOf(p);
    const stepSeq = p > 0 ? S.seq[p - 1] : -1;
    const columns = m.columnSeq.length;
    const last = upperBound(m.seqs, limit - 0.5) - 1;
    const currentColumn = last >= 0 ? m.column[last] : -1;
    const anchor = Math.max(0, currentColumn);
    const inWindow = marbleTable && marbleTable.s === s && anchor >= marbleTable.start &&
      (anchor < marbleTable.end - 4 || marbleTable.end === columns) &&
      (anchor >= marbleTable.start + 4 || marbleTable.start === 0);
    if (!inWindow) buildMarbleTable(s, info, m, Math.max(0, Math.min(anchor - 8, columns - MARBLE_COLUMNS)));
    const table = marbleTable;
    for (let n = 0; n < table.marbles.length; n++) {
      const state = eventState(table.seqs[n], limit, stepSeq);
      if (state === table.states[n]) continue;
      const element = table.marbles[n];
      if (table.states[n]) element.classList.remove(table.states[n]);
      if (state) element.classList.add(state);
      table.states[n] = state;
    }
    if (table.currentColumn !== currentColumn) {
      for (const cell of table.columns[table.currentColumn - table.start] || []) cell.classList.remove('now-col');
      for (const cell of table.columns[currentColumn - table.start] || []) cell.classList.add('now-col');
      table.currentColumn = currentColumn;
    }
  }

  function buildMarbleTable(s, info, m, start) {
    const box = $('marbles');
    const columns = m.columnSeq.length;
    const end = Math.min(columns, start + MARBLE_COLUMNS);
    // Lanes with events in the window, upstream first.
    const cells = new Map();
    for (let n = m.ordered ? upperBound(m.column, start - 1) : 0; n < m.events.length; n++) {
      if (m.column[n] >= end) {
        if (m.ordered) break;
        continue;
      }
      if (m.column[n] < start) continue;
      const node = E.node[m.events[n]];
      if (!cells.has(node)) cells.set(node, new Map());
      const row = cells.get(node);
      if (!row.has(m.column[n])) row.set(m.column[n], []);
      row.get(m.column[n]).push(m.events[n]);
    }
    const lanes = Array.from(cells.keys()).sort((a, b) => m.firstIndex.get(a) - m.firstIndex.get(b));
    const shownLanes = lanes.slice(0, MARBLE_LANES);
    let html = '<table class="marbles"><tbody>';
    for (const node of shownLanes) {
      const i = indexOfNode.get(node);
      const created = N.created[i];
      const ended = N.terminated[i] > 0 ? N.terminated[i] : Infinity;
      html += `<tr><td class="lane">${nodeLink(node)} <span class="site">${esc(str(N.site[i]) || '')}</span></td>`;
      for (let c = start; c < end; c++) {
        const here = cells.get(node).get(c);
        const seq = m.columnSeq[c];
        const alive = seq >= created && seq <= ended;
        html += `<td data-col="${c}" class="${alive ? 'alive' : ''}">${here ? here.map((k) => marbleHTML(k, '')).join(' ') : ''}</td>`;
      }
      html += '</tr>';
    }
    html += `<tr class="axis"><td class="lane">${esc(E.virtualTime ? T.virtualTime : T.columnStep)}</td>`;
    for (let c = start; c < end; c++) html += `<td data-col="${c}">${esc(m.columnLabel[c])}</td>`;
    html += '</tr></tbody></table>';
    const notes = [];
    if (start > 0 || end < columns) notes.push(fmt(T.columnsOf, { from: start + 1, to: end, n: columns }));
    if (lanes.length > shownLanes.length) notes.push(fmt(T.moreLanes, { n: lanes.length - shownLanes.length }));
    if (notes.length) html += `<p class="lane-note">${esc(notes.join(' · '))}</p>`;
    $('marbles-title').innerHTML = fmtHTML(T.marblesOf, { s, node: nodeLink(info.root) });
    box.innerHTML = html;
    const marbles = Array.from(box.querySelectorAll('.marble'));
    const columnCells = [];
    for (const cell of box.querySelectorAll('td[data-col]')) {
      const c = Number(cell.dataset.col) - start;
      (columnCells[c] = columnCells[c] || []).push(cell);
    }
    marbleTable = {
      s, start, end, marbles, columns: columnCells, currentColumn: -2,
      seqs: marbles.map((element) => Number(element.dataset.seq)), states: marbles.map(() => ''),
    };
  }

  // ---------------------------------------------------------------- live objects over the steps

  const R = data.resources;
  const chart = { width: 600, height: 150, left: 34, right: 8, top: 8, bottom: 18 };
  let resourceCursor = null;

  function renderResourcesChart() {
    const box = $('resources');
    if (R.seq.length === 0) {
      box.innerHTML = `<p class="lane-note">${esc(T.noLiveCounts)}</p>`;
      return;
    }
    $('resources-title').textContent = R.counted ? T.countedFromNodes : '';
    const first = Math.min(R.seq[0], stepCount > 0 ? S.seq[0] : R.seq[0]);
    const lastSeq = Math.max(R.seq[R.seq.length - 1], stepCount > 0 ? S.seq[stepCount - 1] : 0);
    const peak = Math.max(1, ...R.total);
    chart.x = (seq) => chart.left + ((seq - first) / Math.max(1, lastSeq - first)) * (chart.width - chart.left - chart.right);
    const y = (count) => chart.height - chart.bottom - (count / peak) * (chart.height - chart.top - chart.bottom);
    let path = `M${chart.x(R.seq[0]).toFixed(1)},${y(0).toFixed(1)}`;
    for (let n = 0; n < R.seq.length; n++) {
      const x = chart.x(R.seq[n]).toFixed(1);
      const next = n + 1 < R.seq.length ? chart.x(R.seq[n + 1]).toFixed(1) : x;
      path += ` L${x},${y(R.total[n]).toFixed(1)} L${next},${y(R.total[n]).toFixed(1)}`;
    }
    path += ` L${chart.x(R.seq[R.seq.length - 1]).toFixed(1)},${y(0).toFixed(1)} Z`;
    box.innerHTML = `<svg viewBox="0 0 ${chart.width} ${chart.height}" preserveAspectRatio="none" role="img" aria-label="${esc(T.liveChartLabel)}">
      <path class="area" d="${path}"/>
      <text class="axis" x="${chart.left - 4}" y="${chart.top + 8}" text-anchor="end">${peak}</text>
      <text class="axis" x="${chart.left - 4}" y="${chart.height - chart.bottom}" text-anchor="end">0</text>
      <text class="axis" x="${chart.left}" y="${chart.height - 4}">${esc(seqText(first))}</text>
      <text class="axis" x="${chart.width - chart.right}" y="${chart.height - 4}" text-anchor="end">${esc(seqText(lastSeq))}</text>
      <line class="cursor" id="resource-cursor" x1="0" x2="0" y1="${chart.top}" y2="${chart.height - chart.bottom}"/>
    </svg><div id="resource-now"></div>`;
    resourceCursor = $('resource-cursor');
  }

  function updateResources(p) {
    if (!resourceCursor) return;
    const seq = p > 0 ? S.seq[p - 1] : stepCount > 0 ? S.seq[0] : R.seq[R.seq.length - 1];
    const x = chart.x(seq).toFixed(1);
    resourceCursor.setAttribute('x1', x);
    resourceCursor.setAttribute('x2', x);
    const n = upperBound(R.seq, limitOf(p) - 0.5) - 1;
    const now = $('resource-now');
    if (n < 0) {
      now.textContent = T.nothingCountedYet;
      return;
    }
    const live = fmtHTML(T.live, { n: `<b>${R.total[n]}</b>` });
    let html = `<table><tr><td>${live}</td><td class="count"></td><td class="muted">${esc(fmt(T.asOfSeq, { n: R.seq[n] }))}</td></tr>`;
    R.types.forEach((type, t) => {
      if (R.byType[t][n] > 0) html += `<tr><td>${esc(strings[type])}</td><td class="count">${R.byType[t][n]}</td><td></td></tr>`;
    });
    now.innerHTML = html + '</table>';
  }

  // ---------------------------------------------------------------- events table

  const EVENT_ROWS = 300;
  let searchTexts = null;
  let matches = [];
  let renderedRows = [];
  let rowStates = [];

  function searchText(k) {
    if (!searchTexts) {
      searchTexts = new Array(eventCount);
      for (let e = 0; e < eventCount; e++) {
        const i = indexOfNode.get(E.node[e]);
        const site = i === undefined ? '' : str(N.site[i]) || '';
        searchTexts[e] = `${nodeName(E.node[e])} ${eventText(e)} ${site} step ${positionOf(E.seq[e])} seq ${E.seq[e]}`.toLowerCase();
      }
    }
    return searchTexts[k];
  }

  function applyFilter() {
    const tokens = $('event-filter').value.toLowerCase().split(/\s+/).filter((t) => t.length > 0);
    matches = [];
    for (let k = 0; k < eventCount; k++) {
      if (tokens.length === 0 || tokens.every((t) => searchText(k).includes(t))) matches.push(k);
    }
    const rows = [];
    renderedRows = matches.slice(0, EVENT_ROWS);
    for (const k of renderedRows) {
      const kind = strings[E.kind[k]];
      rows.push(`<tr data-position="${positionOf(E.seq[k])}"><td>${positionOf(E.seq[k])}</td><td>${E.seq[k]}</td><td>${nodeLink(E.node[k])}</td><td class="${kind}">${esc(eventText(k))}</td><td>${formatTime(E.time[k])}</td></tr>`);
    }
    if (matches.length > EVENT_ROWS) {
      rows.push(`<tr class="more"><td colspan="5">${esc(fmt(T.moreRows, { n: matches.length - EVENT_ROWS }))}</td></tr>`);
    }
    $('events').tBodies[0].innerHTML = rows.join('');
    rowStates = renderedRows.map(() => '');
    $('event-count').textContent = tokens.length > 0 ? fmt(T.filterMatches, { m: matches.length, n: eventCount }) : `${eventCount}`;
    markEventRows(position);
  }

  function markEventRows(p) {
    const limit = limitOf(p);
    const stepSeq = p > 0 ? S.seq[p - 1] : -1;
    const rows = $('events').tBodies[0].rows;
    let firstNow = null;
    for (let r = 0; r < renderedRows.length; r++) {
      const state = eventState(E.seq[renderedRows[r]], limit, stepSeq);
      if (state === 'now' && !firstNow) firstNow = rows[r];
      if (state === rowStates[r]) continue;
      if (rowStates[r]) rows[r].classList.remove(rowStates[r]);
      if (state) rows[r].classList.add(state);
      rowStates[r] = state;
    }
    if (firstNow && playing) {
      const wrap = $('events-wrap');
      const top = firstNow.offsetTop - wrap.clientHeight / 2;
      wrap.scrollTop = Math.max(0, top);
    }
  }

  // ---------------------------------------------------------------- node panel

  let selected = null;
  let selectedElement = null;

  function stepLink(seq) {
    if (!(seq > 0)) return `<span class="muted">${esc(T.never)}</span>`;
    const p = positionOf(seq);
    return `<a class="step-link" data-position="${p}">${esc(p === 0 ? T.beforeStepOne : stepText(p))}</a> <span class="muted">· ${esc(seqText(seq))}</span>`;
  }

  function highlightSelection(d) {
    if (selectedElement) selectedElement.classList.remove('rx-selected');
    selectedElement = d >= 0 ? drawnElements[d] : null;
    if (selectedElement) selectedElement.classList.add('rx-selected');
  }

  function selectDrawn(d, bringIntoView) {
    const members = membersOf[d];
    if (G.count[d] > 1 || members.length > 1) renderGroupPanel(d);
    else if (members.length === 1) renderNodePanel(N.id[members[0]]);
    highlightSelection(d);
    if (bringIntoView) reveal(d);
    updateHash();
  }

  function selectNode(id) {
    renderNodePanel(id);
    const d = drawnOf(id);
    highlightSelection(d);
    if (d >= 0) reveal(d);
    updateHash();
  }

  function renderNodePanel(id) {
    const i = indexOfNode.get(id);
    if (i === undefined) return;
    selected = id;
    const kind = kindOf(i);
    const site = str(N.site[i]);
    const file = str(N.file[i]);
    const d = N.drawn[i];
    let state;
    if (N.leaked[i]) state = `<span class="state-leaked">${esc(T.stateLeaked)}</span>`;
    else if (N.disposed[i] > 0) state = esc(T.stateDisposed);
    else if (N.terminated[i] > 0) state = esc(T.stateTerminated);
    else if (N.deinitialized[i] > 0) state = esc(T.stateGone);
    else state = esc(SUBSCRIPTION_KINDS.has(kind) ? T.stateAlive : T.stateAliveObservable);
    const s = N.subscription[i];
    const info = data.subscriptions[s - 1];
    let html = `<h2>${esc(typeOf(i))} <span class="id">#${id}</span></h2><dl>`;
    const field = (name, value) => `<dt>${esc(name)}</dt><dd>${value}</dd>`;
    html += field(T.fieldKind, `${esc(kind)} <span class="muted">— ${esc(T.kinds[kind] || '')}</span>`);
    html += `<dt>${esc(T.fieldSite)}</dt><dd id="panel-site"><span class="site">${esc(site || T.unknown)}</span>${file ? ` <span class="file">${esc(file)}</span>` : ''}</dd>`;
    html += field(T.fieldID, id);
    if (str(N.thread[i])) html += field(T.fieldThread, esc(str(N.thread[i])));
    if (info) html += field(T.fieldSubscription, fmtHTML(T.subscriptionEndingAt, { s, node: nodeLink(info.root) }));
    html += field(T.fieldBorn, stepLink(N.created[i]));
    html += field(T.fieldDisposed, stepLink(N.disposed[i]));
    html += field(T.fieldDeinit, stepLink(N.deinitialized[i]));
    if (N.terminated[i] > 0) html += field(T.fieldTerminated, stepLink(N.terminated[i]));
    html += field(T.fieldState, state);
    if (d >= 0 && G.count[d] > 1) html += field(T.fieldDrawnIn, `<a class="drawn-link" data-drawn="${d}">×${G.count[d]}</a> ${esc(T.collapsedGroup)}`);
    html += '</dl>';

    const relations = [];
    for (let e = 0; e < data.edges.from.length; e++) {
      const relation = strings[data.edges.relation[e]];
      if (data.edges.from[e] === id) relations.push(`${esc(relation)} → ${nodeLink(data.edges.to[e])}`);
      else if (data.edges.to[e] === id) relations.push(`${esc(relation)} ← ${nodeLink(data.edges.from[e])}`);
    }
    const none = `<p class="muted">${esc(T.none)}</p>`;
    html += `<h3>${esc(fmt(T.relations, { n: relations.length }))}</h3>`;
    html += relations.length ? `<ul id="panel-relations">${relations.slice(0, 50).map((r) => `<li>${r}</li>`).join('')}${relations.length > 50 ? `<li class="muted">${esc(fmt(T.andMore, { n: relations.length - 50 }))}</li>` : ''}</ul>` : none;

    const anomalies = data.anomalies.filter((a) => a.node === id);
    if (anomalies.length) {
      const line = (a) => fmtHTML(T.panelAnomaly, { kind: esc(a.kind), step: stepLink(a.seq), detail: esc(a.detail) });
      html += `<h3>${esc(fmt(T.anomalies, { n: anomalies.length }))}</h3><ul>${anomalies.map((a) => `<li>${line(a)}</li>`).join('')}</ul>`;
    }

    const events = eventsOfNode.get(id) || [];
    html += `<h3>${esc(fmt(T.eventsOf, { n: events.length }))}</h3>`;
    if (events.length) {
      html += `<ol id="panel-events">${events.slice(0, 100).map((k) => `<li data-seq="${E.seq[k]}"><a class="step-link" data-position="${positionOf(E.seq[k])}">${esc(stepText(positionOf(E.seq[k])))}</a> ${esc(eventText(k))}</li>`).join('')}</ol>`;
      if (events.length > 100) html += `<p class="muted">${esc(fmt(T.moreEventsInTable, { n: events.length - 100 }))}</p>`;
      html += `<p><button type="button" id="show-lane">${esc(T.laneButton)}</button></p><div id="panel-lane"></div>`;
    } else {
      html += none;
    }
    $('panel').innerHTML = html;
    const laneButton = $('show-lane');
    if (laneButton) laneButton.addEventListener('click', () => { laneShown = true; renderPanelLane(); });
    laneShown = false;
    markPanelEvents(position);
  }

  let laneShown = false;
  function renderPanelLane() {
    const box = $('panel-lane');
    if (!box || !laneShown || selected === null) return;
    const events = eventsOfNode.get(selected) || [];
    const limit = limitOf(position);
    const stepSeq = position > 0 ? S.seq[position - 1] : -1;
    const shown = events.slice(0, 200);
    const ended = events.length > 0 && strings[E.kind[events[events.length - 1]]] !== 'next';
    const marbles = shown.map((k) => marbleHTML(k, eventState(E.seq[k], limit, stepSeq)));
    box.innerHTML = `<div class="lane-row">── ${marbles.join(' ── ')} ${events.length > shown.length ? '… ' : ''}${ended ? '' : '──→'}</div>`;
  }

  function markPanelEvents(p) {
    const list = $('panel-events');
    if (list) {
      const limit = limitOf(p);
      const stepSeq = p > 0 ? S.seq[p - 1] : -1;
      for (const item of list.children) {
        const seq = Number(item.dataset.seq);
        item.classList.toggle('future', seq >= limit);
        item.classList.toggle('now', seq >= stepSeq && seq < limit);
      }
    }
    renderPanelLane();
  }

  function renderGroupPanel(d) {
    selected = null;
    const members = membersOf[d];
    const types = Array.from(new Set(members.map(typeOf)));
    const sites = Array.from(new Set(members.map((i) => str(N.site[i])).filter((s) => s)));
    const born = Math.min(...members.map((i) => N.created[i]));
    const heading = G.count[d] > 1 ? fmt(T.innerSubscriptions, { n: G.count[d] }) : count(members.length, T.nodesOne, T.nodesOther);
    let html = `<h2>${esc(heading)} <span class="badge">${esc(T.collapsed)}</span></h2><dl>`;
    html += `<dt>${esc(T.fieldTypes)}</dt><dd>${types.map(esc).join(', ')}</dd>`;
    html += `<dt>${esc(T.fieldSite)}</dt><dd id="panel-site">${sites.map((s) => `<span class="site">${esc(s)}</span>`).join(', ') || esc(T.unknown)}</dd>`;
    html += `<dt>${esc(T.fieldNodes)}</dt><dd>${members.length}</dd>`;
    html += `<dt>${esc(T.fieldFirstBorn)}</dt><dd>${stepLink(born)}</dd>`;
    html += `<dt>${esc(T.fieldAllGone)}</dt><dd>${goneAt[d] === Infinity ? esc(T.never) : stepLink(goneAt[d])}</dd>`;
    html += `</dl><p class="muted">${esc(T.groupNote)}</p>`;
    html += `<h3>${esc(T.members)}</h3><ul>${members.slice(0, 24).map((i) => `<li>${nodeLink(N.id[i])}</li>`).join('')}${members.length > 24 ? `<li class="muted">${esc(fmt(T.andMore, { n: members.length - 24 }))}</li>` : ''}</ul>`;
    $('panel').innerHTML = html;
  }

  // ---------------------------------------------------------------- replay

  let position = stepCount;
  let playing = false;
  let timer = null;

  function go(p) {
    p = Math.max(0, Math.min(stepCount, Math.round(p)));
    position = p;
    const limit = limitOf(p);
    applyGraphState(limit);
    applyActive(p);
    renderCall(p);
    $('slider').value = String(p);
    $('position').textContent = stepCount === 0 ? T.noSteps : fmt(p === 0 ? T.beforeStepOneOf : T.stepOf, { p, n: stepCount });
    $('step-back').disabled = p === 0;
    $('step-first').disabled = p === 0;
    $('step-forward').disabled = p === stepCount;
    $('step-last').disabled = p === stepCount;
    renderMarbles(p);
    updateResources(p);
    markEventRows(p);
    markPanelEvents(p);
    updateHash();
  }

  function setPlaying(on) {
    playing = on && stepCount > 0;
    const button = $('play');
    button.textContent = playing ? T.pauseText : T.playText;
    button.setAttribute('aria-label', playing ? T.pauseLabel : T.playLabel);
    if (timer) clearTimeout(timer);
    timer = null;
    if (!playing) return;
    if (position >= stepCount) go(0);
    let lastTick = performance.now();
    const tick = () => {
      if (!playing) return;
      const now = performance.now();
      const rate = Number($('speed').value);
      const advance = Math.max(1, Math.floor(((now - lastTick) * rate) / 1000));
      lastTick = now;
      go(position + advance);
      if (position >= stepCount) {
        setPlaying(false);
        return;
      }
      timer = setTimeout(tick, Math.max(16, 1000 / rate));
    };
    timer = setTimeout(tick, Math.max(16, 1000 / Number($('speed').value)));
  }

  // The address keeps the step and the node (#step=8&node=3), for a link or a reload; written
  // a moment after the replay settles, not at every step (browsers throttle replaceState).
  let hashReady = false;
  let hashTimer = null;
  function updateHash() {
    if (!hashReady) return;
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      const parts = [`step=${position}`];
      if (selected !== null) parts.push(`node=${selected}`);
      try {
        history.replaceState(null, '', '#' + parts.join('&'));
      } catch (error) {
        // Some browsers refuse replaceState on file:// pages; the page works without it.
      }
    }, 300);
  }

  // ---------------------------------------------------------------- wiring

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const node = target.closest('[data-node]');
    if (node) {
      event.preventDefault();
      selectNode(Number(node.dataset.node));
      return;
    }
    const drawn = target.closest('[data-drawn]');
    if (drawn) {
      selectDrawn(Number(drawn.dataset.drawn), true);
      return;
    }
    const step = target.closest('[data-position]');
    if (step) {
      setPlaying(false);
      go(Number(step.dataset.position));
      return;
    }
    const marble = target.closest('.marble[data-seq]');
    if (marble) {
      setPlaying(false);
      go(positionOf(Number(marble.dataset.seq)));
    }
  });

  $('slider').max = String(stepCount);
  $('slider').addEventListener('input', () => { setPlaying(false); go(Number($('slider').value)); });
  $('step-back').addEventListener('click', () => { setPlaying(false); go(position - 1); });
  $('step-forward').addEventListener('click', () => { setPlaying(false); go(position + 1); });
  $('step-first').addEventListener('click', () => { setPlaying(false); go(0); });
  $('step-last').addEventListener('click', () => { setPlaying(false); go(stepCount); });
  $('play').addEventListener('click', () => setPlaying(!playing));
  $('event-filter').addEventListener('input', applyFilter);
  if (stepCount === 0) {
    for (const id of ['slider', 'play', 'step-back', 'step-forward', 'step-first', 'step-last', 'speed']) $(id).disabled = true;
  }

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const jump = event.shiftKey ? 10 : 1;
    switch (event.key) {
      case 'ArrowRight': setPlaying(false); go(position + jump); break;
      case 'ArrowLeft': setPlaying(false); go(position - jump); break;
      case 'Home': setPlaying(false); go(0); break;
      case 'End': setPlaying(false); go(stepCount); break;
      case ' ': if (target instanceof HTMLButtonElement) return; setPlaying(!playing); break;
      case '+': case '=': zoom(1 / 1.4); break;
      case '-': zoom(1.4); break;
      case '0': fit(); break;
      default: return;
    }
    event.preventDefault();
  });

  renderHeader();
  renderResourcesChart();
  applyFilter();
  const hash = new URLSearchParams(location.hash.slice(1));
  const initial = hash.has('step') ? Number(hash.get('step')) : stepCount;
  go(Number.isFinite(initial) ? initial : stepCount);
  if (hash.has('node') && indexOfNode.has(Number(hash.get('node')))) selectNode(Number(hash.get('node')));
  hashReady = true;

  /** For scripts and tests: the replay's position and the node selection. */
  window.rxtraceReport = {
    get position() { return position; },
    get steps() { return stepCount; },
    go: (p) => { setPlaying(false); go(p); },
    select: selectNode,
  };
  performance.mark('rxtrace-ready');
  performance.measure('rxtrace-load', 'rxtrace-start', 'rxtrace-ready');
})();
