#include "spec/load.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "spec/workload_reader.hpp"
#include "spec/yaml_documents.hpp"

namespace kbench {

namespace {

namespace fs = std::filesystem;
using spec::Located;
using spec::SourcePosition;
using spec::SpecReader;

// Every workload of one load, with the place its name was written, so a repeated name names both places.
class WorkloadCollector {
 public:
  void add(const SpecReader& reader, spec::ReadWorkload read) {
    const std::string here = spec::format_position(reader.origin(), read.name_position);
    const auto [first, inserted] = first_seen_.emplace(read.workload.name, here);
    if (!inserted)
      reader.fail(read.name_position, "name",
                  fmt::format("duplicate workload name '{}', first defined at {}; expected each name once per load",
                              read.workload.name, first->second));
    workloads_.push_back(std::move(read.workload));
  }

  std::vector<Workload> take() { return std::move(workloads_); }

 private:
  std::map<std::string, std::string> first_seen_;
  std::vector<Workload> workloads_;
};

void collect_from_text(const std::string& text, const std::string& origin, WorkloadCollector& collector) {
  const SpecReader reader(origin);
  std::size_t found = 0;
  // Several `---` documents are allowed; each holds one workload mapping or a list of them.
  for (const YAML::Node& document : spec::load_documents(reader, text)) {
    if (document.IsNull()) continue;  // an empty document (a stray `---`) adds nothing
    const Located top{document, "", spec::position_of(document.Mark())};
    if (document.IsSequence()) {
      const auto entries = reader.read_sequence(top, "");
      if (entries.empty())
        reader.fail(top.position, "(top level)", "got an empty list; expected at least one workload mapping");
      for (const Located& entry : entries) {
        // Entries' key paths stay relative to the workload ("stride[1]"); the position says which entry.
        const Located workload{entry.node, "", entry.position};
        if (!entry.node.IsMap())
          reader.fail(entry, fmt::format("got {}; expected a workload mapping", spec::describe_node(entry.node)));
        collector.add(reader, spec::read_workload(reader, workload));
        ++found;
      }
    } else {
      if (!document.IsMap())
        reader.fail(top.position, "(top level)",
                    fmt::format("got {}; expected a workload mapping or a list of them",
                                spec::describe_node(document)));
      collector.add(reader, spec::read_workload(reader, top));
      ++found;
    }
  }
  if (found == 0)
    reader.fail(SourcePosition{}, "(top level)",
                "the file holds no workload (empty or only comments); expected a workload mapping or a list of them");
}

std::string read_file_text(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    const std::error_code error(errno, std::generic_category());
    throw InputError(fmt::format("{}: cannot open workload spec: {}", path, error.message()));
  }
  std::ostringstream text;
  text << stream.rdbuf();
  if (stream.bad()) throw InputError(fmt::format("{}: cannot read workload spec", path));
  return text.str();
}

bool is_spec_file(const fs::directory_entry& entry) {
  const std::string extension = entry.path().extension().string();
  return entry.is_regular_file() && (extension == ".yaml" || extension == ".yml");
}

std::vector<std::string> spec_files_under(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code error;
  fs::recursive_directory_iterator it(directory, fs::directory_options::follow_directory_symlink, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error))
    if (is_spec_file(*it)) files.push_back(it->path().string());
  if (error) throw InputError(fmt::format("{}: cannot list workload specs: {}", directory, error.message()));
  if (files.empty())
    throw InputError(fmt::format("{}: no workload specs found; expected *.yaml or *.yml files in this directory",
                                 directory));
  // A stable order, so runs and reports list workloads the same way everywhere.
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<Workload> parse_workloads(const std::string& yaml_text, const std::string& origin) {
  WorkloadCollector collector;
  collect_from_text(yaml_text, origin, collector);
  return collector.take();
}

std::vector<Workload> load_workloads(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) {
    const std::string reason = error ? error.message() : "no such file or directory";
    throw InputError(fmt::format("{}: cannot open workload spec: {}", path, reason));
  }
  WorkloadCollector collector;
  const std::vector<std::string> files = fs::is_directory(status) ? spec_files_under(path) : std::vector{path};
  for (const std::string& file : files) collect_from_text(read_file_text(file), file, collector);
  return collector.take();
}

std::vector<Workload> load_workloads(const std::vector<std::string>& paths) {
  std::vector<Workload> all;
  for (const std::string& path : paths) {
    std::vector<Workload> loaded = load_workloads(path);
    all.insert(all.end(), std::make_move_iterator(loaded.begin()), std::make_move_iterator(loaded.end()));
  }
  if (all.empty()) throw InputError(fmt::format("no workloads found in {}", fmt::join(paths, ", ")));
  return all;
}

}  // namespace kbench
