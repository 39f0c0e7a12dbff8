"use strict";
// spacy-deid review page. Data: the gzip+base64 JSON in #review-data (see spacy_deid/review/builder.py `payload`).
// Notes are rendered one at a time, when shown; offsets are UTF-16 here and code points in exports.
(async function () {
  const T = { start: performance.now() }; // load timings (ms since navigation start), for the benchmark
  const packed = Uint8Array.from(atob(document.getElementById("review-data").textContent.trim()), (c) => c.charCodeAt(0));
  const DATA = JSON.parse(await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).text());
  T.parsed = performance.now();
  const L = DATA.labels, S = DATA.sources, OPS = DATA.operators, COLORS = DATA.colors;
  const HAS_ORIG = DATA.hasOriginal;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const notes = DATA.notes.map((row) => ({
    id: row[0], patient: row[1], deid: row[2], strings: row[4],
    reps: row[3].map((r) => ({ s: -1, e: -1, os: r[0], oe: r[1], label: L[r[2]], source: S[r[3]], op: OPS[r[4]] })),
    _orig: null,
  }));
  const edits = new Map(); // note index -> {rejected: Set, relabel: Map, added: [{s, e, label}]}
  const reviewed = new Set();
  let view = [], pos = 0; // filtered note indices; position of the current note in `view`

  function original(k) { // the original text and offsets, rebuilt: the gaps are the de-identified text's gaps
    const n = notes[k];
    if (!HAS_ORIG || n.strings === null) return null;
    if (n._orig === null) {
      const parts = []; let prev = 0, length = 0;
      n.reps.forEach((r, i) => {
        const gap = n.deid.slice(prev, r.os);
        parts.push(gap, n.strings[i]);
        r.s = length + gap.length; r.e = r.s + n.strings[i].length;
        length = r.e; prev = r.oe;
      });
      parts.push(n.deid.slice(prev));
      n._orig = parts.join("");
    }
    return n._orig;
  }
  const editable = (k) => (HAS_ORIG && notes[k].strings !== null ? "orig" : "deid");
  function editsOf(k) {
    if (!edits.has(k)) edits.set(k, { rejected: new Set(), relabel: new Map(), added: [] });
    return edits.get(k);
  }
  const isEdited = (k) => { const e = edits.get(k); return !!e && (e.rejected.size + e.relabel.size + e.added.length) > 0; };
  const corrected = () => notes.map((_, k) => k).filter((k) => isEdited(k) || reviewed.has(k));

  // --- counts, legend, filters ---------------------------------------------------------------
  function countTable(reps) {
    const counts = new Map(); const bySource = new Map();
    for (const r of reps) {
      const key = r.label + "\u0000" + r.source;
      counts.set(key, (counts.get(key) || 0) + 1);
      bySource.set(r.source, (bySource.get(r.source) || 0) + 1);
    }
    const sources = S.filter((s) => bySource.has(s));
    const labels = L.filter((l) => sources.some((s) => counts.has(l + "\u0000" + s)));
    let html = "<table><tr><th>label</th>" + sources.map((s) => `<th>${esc(s)}</th>`).join("") + "<th>all</th></tr>";
    for (const l of labels) {
      let total = 0;
      html += `<tr data-label="${esc(l)}"><td><span class="key" style="background:${COLORS[l] || "#ddd"}">${esc(l)}</span></td>`;
      for (const s of sources) { const c = counts.get(l + "\u0000" + s) || 0; total += c; html += `<td>${c || ""}</td>`; }
      html += `<td>${total}</td></tr>`;
    }
    html += "<tr><th>all</th>" + sources.map((s) => `<th>${bySource.get(s)}</th>`).join("") + `<th>${reps.length}</th></tr></table>`;
    return html;
  }
  function setup() {
    const all = [];
    for (const n of notes) for (const r of n.reps) all.push(r);
    const perLabel = new Map();
    for (const r of all) perLabel.set(r.label, (perLabel.get(r.label) || 0) + 1);
    $("legend").innerHTML = L.filter((l) => perLabel.has(l)).map((l) =>
      `<span class="key" data-label="${esc(l)}" style="background:${COLORS[l] || "#ddd"}">${esc(l)} ${perLabel.get(l)}</span>`).join("");
    $("totals").innerHTML = countTable(all);
    $("summary").textContent = `${notes.length} notes · ${all.length} replacements` + (HAS_ORIG ? "" : " · de-identified side only");
    $("f-label").innerHTML += L.map((l) => `<option value="${esc(l)}">${esc(l)}</option>`).join("");
    $("f-source").innerHTML += S.map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join("");
    const patients = [...new Set(notes.map((n) => n.patient).filter((p) => p !== null))];
    $("patients").innerHTML = patients.slice(0, 5000).map((p) => `<option value="${esc(p)}">`).join("");
    $("popup-label").innerHTML = L.map((l) => `<option value="${esc(l)}">${esc(l)}</option>`).join("");
  }
  function applyFilters(keepCurrent) {
    const label = $("f-label").value, source = $("f-source").value;
    const patient = $("f-patient").value.trim(), q = $("f-id").value.trim().toLowerCase();
    const current = view[pos];
    view = [];
    notes.forEach((n, k) => {
      if (patient && n.patient !== patient) return;
      if (q && !String(n.id).toLowerCase().includes(q)) return;
      if ((label || source) && !n.reps.some((r) => (!label || r.label === label) && (!source || r.source === source))) return;
      view.push(k);
    });
    const again = keepCurrent ? view.indexOf(current) : -1;
    pos = again >= 0 ? again : 0;
    document.querySelectorAll("#legend .key").forEach((el) => el.classList.toggle("off", !!label && el.dataset.label !== label));
    renderList();
    show();
  }
  let listGeneration = 0;
  function renderList() { // the first items now, the rest in chunks after the note is shown
    $("list-count").textContent = `${view.length} of ${notes.length} notes`;
    const list = $("note-list"), generation = ++listGeneration, chunk = 2000;
    const items = (from, to) => view.slice(from, to).map((k, j) =>
      `<li data-pos="${from + j}" class="${listClass(k, from + j)}">${esc(String(notes[k].id))} <small>(${notes[k].reps.length})</small></li>`).join("");
    list.innerHTML = items(0, Math.max(200, pos + 1));
    let done = Math.max(200, pos + 1);
    const more = () => {
      if (generation !== listGeneration || done >= view.length) return;
      list.insertAdjacentHTML("beforeend", items(done, done + chunk));
      done += chunk;
      setTimeout(more, 0);
    };
    setTimeout(more, 0);
  }
  const listClass = (k, i) => [i === pos ? "current" : "", reviewed.has(k) ? "reviewed" : "", isEdited(k) ? "edited" : ""].join(" ").trim();
  function refreshListItem(i) {
    const li = document.querySelector(`#note-list li[data-pos="${i}"]`);
    if (li) li.className = listClass(view[i], i);
  }

  // --- one note -------------------------------------------------------------------------------
  function spansFor(k, side) {
    const n = notes[k], e = editsOf(k), orig = side === "orig";
    const spans = n.reps.map((r, i) => {
      const label = e.relabel.get(i) || r.label;
      const surrogate = n.deid.slice(r.os, r.oe);
      const was = orig ? "" : (n.strings ? ` (was: ${n.strings[i]})` : "");
      const title = `${label} · ${r.source}` + (r.op && r.op !== "surrogate" ? ` · ${r.op}` : "") +
        (orig ? ` → ${surrogate}` : was) + (e.relabel.has(i) ? ` · relabeled from ${r.label}` : "");
      const cls = [e.rejected.has(i) ? "rejected" : "", e.relabel.has(i) ? "relabeled" : ""];
      return { s: orig ? r.s : r.os, e: orig ? r.e : r.oe, label, ref: "r" + i, title, cls: cls.join(" "), filterLabel: r.label, source: r.source };
    });
    if (editable(k) === side) {
      e.added.forEach((a, j) => spans.push({ s: a.s, e: a.e, label: a.label, ref: "a" + j, title: `${a.label} · added by you`, cls: "added", filterLabel: a.label, source: "" }));
    }
    return spans.sort((a, b) => a.s - b.s || a.e - b.e);
  }
  function paneHtml(text, spans) {
    const label = $("f-label").value, source = $("f-source").value;
    let html = "", prev = 0;
    for (const sp of spans) {
      if (sp.s < prev) continue; // never happens: overlaps are refused when added
      const dim = (label && sp.filterLabel !== label) || (source && sp.source && sp.source !== source);
      html += esc(text.slice(prev, sp.s)) +
        `<mark class="entity ${sp.cls}${dim ? " dim" : ""}" data-ref="${sp.ref}" data-label="${esc(sp.label)}" title="${esc(sp.title)}" style="background:${COLORS[sp.label] || "#ddd"}">` +
        esc(text.slice(sp.s, sp.e)) + "</mark>";
      prev = sp.e;
    }
    return html + esc(text.slice(prev));
  }
  function show() {
    hidePopup();
    const k = view[pos];
    if (k === undefined) {
      $("note-head").textContent = "No note matches the filters."; $("panes").innerHTML = ""; $("note-counts").innerHTML = "";
      return;
    }
    const n = notes[k], orig = original(k);
    $("note-head").innerHTML = `<strong>Note ${esc(String(n.id))}</strong>` + (n.patient !== null ? ` · patient ${esc(n.patient)}` : "") +
      ` · ${pos + 1} / ${view.length}` + (reviewed.has(k) ? " · <strong>reviewed</strong>" : "") +
      (HAS_ORIG && orig === null ? ' · <span class="warn">no matching original found: de-identified side only</span>' : "");
    let html = "";
    if (orig !== null) html += `<div class="pane"><h3>Original</h3><div class="text" data-side="orig" data-note="${k}">${paneHtml(orig, spansFor(k, "orig"))}</div></div>`;
    html += `<div class="pane"><h3>De-identified</h3><div class="text" data-side="deid" data-note="${k}">${paneHtml(n.deid, spansFor(k, "deid"))}</div></div>`;
    $("panes").innerHTML = html;
    $("note-counts").innerHTML = countTable(n.reps);
    document.querySelectorAll("#note-list li.current").forEach((li) => li.classList.remove("current"));
    refreshListItem(pos);
    const li = document.querySelector(`#note-list li[data-pos="${pos}"]`);
    if (li) li.scrollIntoView({ block: "nearest" });
  }
  function go(delta) { if (view.length) { pos = Math.max(0, Math.min(view.length - 1, pos + delta)); show(); } }

  // --- corrections ------------------------------------------------------------------------------
  let pending = null; // {k, kind: "span"|"select", ref?, s?, e?}
  function popupAt(rect, title, label, buttons) {
    const p = $("popup");
    $("popup-title").textContent = title;
    if (label) $("popup-label").value = label;
    for (const b of ["apply", "reject", "restore"]) $("popup-" + b).hidden = !buttons.includes(b);
    $("popup-label").hidden = !buttons.includes("apply");
    p.hidden = false;
    p.style.left = Math.max(4, rect.left + window.scrollX) + "px";
    p.style.top = rect.bottom + window.scrollY + 4 + "px";
  }
  function hidePopup() { $("popup").hidden = true; pending = null; }
  function offsetIn(container, node, offset) {
    const r = document.createRange(); r.selectNodeContents(container); r.setEnd(node, offset);
    return r.toString().length;
  }
  function onSelect() {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return;
    const range = sel.getRangeAt(0);
    const box = (range.commonAncestorContainer.nodeType === 1 ? range.commonAncestorContainer : range.commonAncestorContainer.parentElement).closest(".text");
    if (!box) return;
    const k = Number(box.dataset.note);
    if (box.dataset.side !== editable(k)) return;
    const text = box.dataset.side === "orig" ? original(k) : notes[k].deid;
    let s = offsetIn(box, range.startContainer, range.startOffset), e = offsetIn(box, range.endContainer, range.endOffset);
    while (s < e && /\s/.test(text[s])) s++;
    while (e > s && /\s/.test(text[e - 1])) e--;
    if (s >= e) return;
    const clash = spansFor(k, box.dataset.side).some((sp) => !sp.cls.includes("rejected") && sp.s < e && s < sp.e);
    pending = { k, kind: "select", s, e };
    const rect = range.getBoundingClientRect();
    if (clash) { popupAt(rect, "Overlaps a highlight: reject that one first", null, []); pending = null; return; }
    popupAt(rect, `Add PHI: "${text.slice(s, e)}"`, $("popup-label").value, ["apply"]);
  }
  function onMarkClick(mark) {
    const box = mark.closest(".text"), k = Number(box.dataset.note), ref = mark.dataset.ref;
    const e = editsOf(k);
    pending = { k, kind: "span", ref };
    if (ref[0] === "a") {
      popupAt(mark.getBoundingClientRect(), `Added: ${mark.dataset.label}`, mark.dataset.label, ["apply", "reject"]);
      return;
    }
    const i = Number(ref.slice(1)), r = notes[k].reps[i];
    const changed = e.rejected.has(i) || e.relabel.has(i);
    popupAt(mark.getBoundingClientRect(), `${r.label} (${r.source})` + (e.rejected.has(i) ? " · rejected" : ""),
      e.relabel.get(i) || r.label, changed ? ["apply", "reject", "restore"] : ["apply", "reject"]);
  }
  function act(what) {
    if (!pending) return;
    const { k } = pending, e = editsOf(k), label = $("popup-label").value;
    if (pending.kind === "select") {
      if (what === "apply") e.added.push({ s: pending.s, e: pending.e, label });
      window.getSelection().removeAllRanges();
    } else if (pending.ref[0] === "a") {
      const j = Number(pending.ref.slice(1));
      if (what === "reject") e.added.splice(j, 1); else if (what === "apply") e.added[j].label = label;
    } else {
      const i = Number(pending.ref.slice(1)), r = notes[k].reps[i];
      if (what === "reject") e.rejected.add(i);
      if (what === "restore") { e.rejected.delete(i); e.relabel.delete(i); }
      if (what === "apply") { e.rejected.delete(i); if (label === r.label) e.relabel.delete(i); else e.relabel.set(i, label); }
    }
    reviewed.add(k);
    $("n-corrected").textContent = corrected().length;
    show();
  }
  function codePoints(text, i) { // UTF-16 index -> code point index (Python's offsets)
    let n = 0;
    for (let j = 0; j < i; j++) { const c = text.charCodeAt(j); if (c < 0xdc00 || c > 0xdfff) n++; }
    return n;
  }
  function exportLines() { // one corpus record (docs/annotation.md) per reviewed or corrected note
    return corrected().map((k) => {
      const n = notes[k], side = editable(k), text = side === "orig" ? original(k) : n.deid;
      const spans = spansFor(k, side).filter((sp) => !sp.cls.includes("rejected") && sp.e > sp.s)
        .map((sp) => ({ start: codePoints(text, sp.s), end: codePoints(text, sp.e), label: sp.label, text: text.slice(sp.s, sp.e) }));
      const record = { id: String(n.id) };
      if (n.patient !== null) record.patient_id = n.patient;
      record.text = text; record.spans = spans;
      return JSON.stringify(record);
    });
  }
  function download() {
    const lines = exportLines();
    const blob = new Blob([lines.length ? lines.join("\n") + "\n" : ""], { type: "application/x-ndjson" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob); a.download = "corrections.jsonl";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  // --- events -----------------------------------------------------------------------------------
  $("note-list").addEventListener("click", (ev) => { const li = ev.target.closest("li"); if (li) { pos = Number(li.dataset.pos); show(); } });
  $("panes").addEventListener("click", (ev) => {
    const mark = ev.target.closest("mark.entity");
    if (mark && window.getSelection().isCollapsed) onMarkClick(mark);
  });
  $("panes").addEventListener("mouseup", () => setTimeout(onSelect, 0));
  $("legend").addEventListener("click", (ev) => {
    const key = ev.target.closest(".key"); if (!key) return;
    $("f-label").value = $("f-label").value === key.dataset.label ? "" : key.dataset.label; applyFilters(true);
  });
  for (const id of ["f-label", "f-source"]) $(id).addEventListener("change", () => applyFilters(true));
  for (const id of ["f-patient", "f-id"]) $(id).addEventListener("input", () => applyFilters(true));
  $("popup-apply").addEventListener("click", () => act("apply"));
  $("popup-reject").addEventListener("click", () => act("reject"));
  $("popup-restore").addEventListener("click", () => act("restore"));
  $("popup-close").addEventListener("click", hidePopup);
  $("download").addEventListener("click", download);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { hidePopup(); if (document.activeElement) document.activeElement.blur(); return; }
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "j" || ev.key === "ArrowDown") { go(1); ev.preventDefault(); }
    else if (ev.key === "k" || ev.key === "ArrowUp") { go(-1); ev.preventDefault(); }
    else if (ev.key === "r" && view.length) {
      const k = view[pos]; if (reviewed.has(k)) reviewed.delete(k); else reviewed.add(k);
      $("n-corrected").textContent = corrected().length; show();
    } else if (ev.key === "/") { $("f-id").focus(); ev.preventDefault(); }
  });

  T.decoded = performance.now();
  setup();
  T.setup = performance.now();
  applyFilters(false);
  T.shown = performance.now();
  window.deidReview = { exportLines, notes: notes.length, timings: T };
  document.body.dataset.ready = String(performance.now());
})();
