#pragma once
// `kbench merge A.json B.json ... --output ALL.json`: the documents of several runs of one suite
// (shards, or one process per workload as scripts/gpu-check.sh runs them) joined into one report
// that diffs and renders like any other. Only runs that measured the same way can be joined: the
// same kbench version and the same settings (seed, math modes, timing options, verification points,
// backends asked for) and peaks; anything else would put numbers side by side that are not comparable.
#include <string>
#include <vector>

#include "run/result.hpp"

namespace kbench {

struct NamedReport {
  std::string origin;  // the file it was read from, for messages
  RunReport report;
};

// One report: the first document's header (version, build, host, device, peaks, settings; the
// earliest start), every workload once (in the order first seen; a name described differently by two
// documents is refused), every result (ordered as one unsharded run would list them: by workload,
// then backend as requested, then math mode as requested), the notes of all of them once each, and
// interrupted if any was. A host or device that differs between documents is kept, as a note.
// Throws InputError naming both files and the field when two documents cannot be joined, or when
// `reports` is empty.
RunReport merge_reports(const std::vector<NamedReport>& reports);

}  // namespace kbench
