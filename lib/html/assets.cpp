#include "html/assets.hpp"

namespace kbench::html {

std::string_view stylesheet() {
  return R"CSS(
:root { --ink: #1b1f24; --muted: #5b6472; --rule: #d8dde3; --shade: #eef1f4; --bad: #b42318; --warn: #9a6700; --good: #1a7f37; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1280px; padding: 20px 28px 60px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 26px 0 6px; }
.subtitle, .muted { color: var(--muted); }
table { border-collapse: collapse; margin: 8px 0; }
th, td { padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
table.facts th { white-space: nowrap; font-weight: 500; }
table.results { font-size: 13px; width: 100%; display: block; overflow-x: auto; }
td { overflow-wrap: anywhere; }
@media (max-width: 820px) { body { padding: 12px 10px 40px; } table.facts th { white-space: normal; } }
table.results th, table.results td { border-bottom: 1px solid var(--rule); padding: 4px 8px; }
table.results td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.status-ok { color: var(--good); }
.status-wrong, .status-failed { color: var(--bad); font-weight: 600; }
.status-unsupported, .status-unavailable, .status-skipped { color: var(--warn); }
.run { border: 1px solid var(--rule); border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
.run h3 { margin-top: 0; }
.banner { background: #fff4d6; border: 1px solid #e8c35a; padding: 6px 10px; border-radius: 4px; margin: 8px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 6px 0 0; font-size: 13px; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; }
.swatch.square { border-radius: 0; }
svg.chart { display: block; max-width: 100%; height: auto; font-size: 11px; background: #fff; }
svg .grid { stroke: #e6e9ed; stroke-width: 1; }
svg .frame { fill: none; stroke: #9aa4b1; }
svg .tick { fill: var(--muted); }
svg .axis-label { fill: var(--ink); font-size: 12px; }
svg .roof { fill: none; stroke: #333; stroke-width: 2; }
svg .roof-tf32 { stroke-dasharray: 7 4; }
svg .roof-label { fill: #333; font-size: 11px; }
svg .workload-tag { fill: var(--muted); font-size: 10px; }
svg .roofline-point circle, svg .roofline-point rect, svg .median-mark circle, svg .median-mark rect { stroke: #fff; stroke-width: 1.2; }
svg .below-floor { fill: var(--shade); }
svg .memory-term { stroke: #0072B2; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .compute-term { stroke: #D55E00; stroke-width: 1.5; stroke-dasharray: 2 3; }
svg .memory-term-label { fill: #0072B2; }
svg .compute-term-label { fill: #D55E00; }
svg .spread { stroke-width: 3; stroke-linecap: round; opacity: 0.55; }
svg .record-spread { stroke: #777; stroke-width: 2; }
svg .record-mark path { fill: #777; }
svg .row-label { fill: var(--ink); }
svg .row-value { fill: var(--muted); }
svg .empty-note { fill: var(--muted); font-size: 13px; }
svg .sweep-line { fill: none; stroke-width: 2; }
svg .sweep-floor { fill: none; stroke: #333; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .sweep-floor-tf32 { stroke-dasharray: 2 3; }
svg .sweep-point circle, svg .sweep-point rect { stroke: #fff; stroke-width: 1; }
ul.untimed { margin: 4px 0; padding-left: 20px; color: var(--muted); font-size: 13px; }
#kbench-selfcheck { margin-top: 28px; font-size: 12px; color: var(--muted); }
#kbench-selfcheck[data-status="fail"] { color: var(--bad); font-weight: 600; }
)CSS";
}

std::string_view error_trap_script() {
  return R"JS(
window.kbenchErrors = [];
window.addEventListener('error', function (event) { window.kbenchErrors.push(String(event.message)); });
)JS";
}

std::string_view self_check_script() {
  return R"JS(
(function () {
  var problems = window.kbenchErrors.slice();
  var status = document.getElementById('kbench-selfcheck');
  var rows = document.querySelectorAll('tr[data-result]');
  var plotted = 0;
  var ids = {};
  function count(selector, id) {
    return document.querySelectorAll(selector + '[data-result="' + id + '"]').length;
  }
  for (var i = 0; i < rows.length; i++) {
    var id = rows[i].getAttribute('data-result');
    var want = rows[i].getAttribute('data-plotted') === '1' ? 1 : 0;
    ids[id] = true;
    plotted += want;
    var points = count('.roofline-point', id);
    var marks = count('.median-mark', id);
    if (points !== want) problems.push(id + ': ' + points + ' roofline points, expected ' + want);
    if (marks !== want) problems.push(id + ': ' + marks + ' median marks, expected ' + want);
  }
  var points = document.querySelectorAll('.roofline-point');
  for (var j = 0; j < points.length; j++) {
    var pid = points[j].getAttribute('data-result');
    if (!ids[pid]) problems.push('roofline point ' + pid + ' has no row in the table');
    var box = points[j].getBoundingClientRect();
    if (!(box.width > 0 && box.height > 0)) problems.push('roofline point ' + pid + ' was not laid out');
  }
  status.setAttribute('data-results', String(rows.length));
  status.setAttribute('data-points', String(points.length));
  // How wide the page is laid out against the window: wider means it scrolls sideways.
  status.setAttribute('data-page-width', String(document.documentElement.scrollWidth));
  status.setAttribute('data-window-width', String(window.innerWidth));
  if (problems.length === 0) {
    status.setAttribute('data-status', 'ok');
    status.textContent = 'Self-check passed: ' + rows.length + ' results, ' + points.length + ' on the charts.';
  } else {
    status.setAttribute('data-status', 'fail');
    status.textContent = 'Self-check FAILED: ' + problems.join('; ');
    console.error('kbench report self-check failed: ' + problems.join('; '));
  }
})();
)JS";
}

}  // namespace kbench::html
