#include "spec/load.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "io/input_file.hpp"
#include "spec/pass_list.hpp"
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
  void add(const SpecReader& reader, const spec::ReadWorkload& read) {
    const std::string here = spec::format_position(reader.origin(), read.name_position);
    for (Workload& workload : expand_passes(read.workload, read.passes)) {
      const auto [first, inserted] = first_seen_.emplace(workload.name, here);
      if (!inserted)
        reader.fail(read.name_position, "name",
                    fmt::format("duplicate workload name '{}', first defined at {}; expected each name once per load",
                                workload.name, first->second));
      workloads_.push_back(std::move(workload));
    }
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
        reader.fail(
            top.position, "(top level)",
            fmt::format("got {}; expected a workload mapping or a list of them", spec::describe_node(document)));
      collector.add(reader, spec::read_workload(reader, top));
      ++found;
    }
  }
  if (found == 0)
    reader.fail(SourcePosition{}, "(top level)",
                "the file holds no workload (empty or only comments); expected a workload mapping or a list of them");
}

bool has_spec_extension(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".yaml" || extension == ".yml";
}

// A directory by device and inode: what a link loop leads back to, whatever the path it is reached by.
struct DirectoryId {
  dev_t device;
  ino_t inode;
  std::string path;  // as first reached, for the message
};

// Depth first, following links to directories (a workloads tree may link in another), with every
// directory on the way down in `open`: a link to one of them is a loop, which would be walked until
// the path grew past the OS's limit. It is refused, naming the link, rather than skipped, so no spec
// is silently left out of a run. A *.yaml entry that is not a regular file (a FIFO, a device, a
// dangling link) is refused too: reading it would block, or the run would silently lack it.
void collect_spec_files(const fs::path& directory, std::vector<DirectoryId>& open, std::vector<std::string>& files) {
  std::error_code error;
  fs::directory_iterator it(directory, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    const fs::path& entry = it->path();
    struct stat info {};
    if (::stat(entry.c_str(), &info) != 0) {
      if (!has_spec_extension(entry)) continue;  // a dangling link that is not a spec is not ours to judge
      io::check_input_path(entry.string(), "workload spec", false);  // throws, naming the reason
    }
    if (S_ISDIR(info.st_mode)) {
      for (const DirectoryId& above : open)
        if (above.device == info.st_dev && above.inode == info.st_ino)
          throw InputError(
              fmt::format("{}: symbolic link loop: it leads back to {}, a directory above it; remove "
                          "the link, or give the directories it links as separate arguments",
                          entry.string(), above.path));
      open.push_back({info.st_dev, info.st_ino, entry.string()});
      collect_spec_files(entry, open, files);
      open.pop_back();
    } else if (has_spec_extension(entry)) {
      if (!S_ISREG(info.st_mode))
        throw InputError(fmt::format("{}: cannot open workload spec: it is {}; expected a regular file", entry.string(),
                                     io::describe_file_type(info.st_mode)));
      files.push_back(entry.string());
    }
  }
  if (error) throw InputError(fmt::format("{}: cannot list workload specs: {}", directory.string(), error.message()));
}

std::vector<std::string> spec_files_under(const std::string& directory) {
  struct stat info {};
  std::vector<DirectoryId> open;
  if (::stat(directory.c_str(), &info) == 0) open.push_back({info.st_dev, info.st_ino, directory});
  std::vector<std::string> files;
  collect_spec_files(directory, open, files);
  if (files.empty())
    throw InputError(
        fmt::format("{}: no workload specs found; expected *.yaml or *.yml files in this directory", directory));
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

std::vector<std::string> spec_files(const std::string& path) {
  const bool directory = io::check_input_path(path, "workload spec", true) == io::PathKind::directory;
  return directory ? spec_files_under(path) : std::vector{path};
}

namespace {

// `kbench import miopen cmds.txt | kbench run -`: the spec text from standard input, up to the size a
// spec file may have.
std::string read_standard_input() {
  std::optional<std::string> text = io::read_standard_input(io::kMaxSpecBytes);
  if (!text)
    throw InputError(fmt::format("{}: cannot read workload spec: over {} bytes; the limit is 4 MiB", kStandardInputName,
                                 io::kMaxSpecBytes));
  return std::move(*text);
}

// Every file of `path` read into `collector`; a bad file's message is added to `errors` and the next file
// read, so a folder with several bad specs is reported whole, not one file per run.
void collect_path(const std::string& path, WorkloadCollector& collector, std::vector<std::string>& errors) {
  try {
    if (path == kStandardInputPath) {
      collect_from_text(read_standard_input(), kStandardInputName, collector);
      return;
    }
    for (const std::string& file : spec_files(path)) {
      try {
        collect_from_text(io::read_input_file(file, "workload spec", io::kMaxSpecBytes), file, collector);
      } catch (const InputError& e) {
        errors.push_back(e.what());
      }
    }
  } catch (const InputError& e) {
    errors.push_back(e.what());
  }
}

// One message: the only error as it is, or each on a line of its own under a count.
[[noreturn]] void throw_errors(const std::vector<std::string>& errors) {
  if (errors.size() == 1) throw InputError(errors.front());
  std::string text = fmt::format("{} workload specs could not be read:", errors.size());
  for (const std::string& e : errors) text += "\n  " + e;
  throw InputError(text);
}

}  // namespace

std::vector<Workload> load_workloads(const std::string& path) {
  WorkloadCollector collector;
  std::vector<std::string> errors;
  collect_path(path, collector, errors);
  if (!errors.empty()) throw_errors(errors);
  return collector.take();
}

std::vector<Workload> load_workloads(const std::vector<std::string>& paths) {
  std::vector<Workload> all;
  std::vector<std::string> errors;
  for (const std::string& path : paths) {
    WorkloadCollector collector;  // a name may repeat across paths (the same spec given twice): per path
    collect_path(path, collector, errors);
    std::vector<Workload> loaded = collector.take();
    all.insert(all.end(), std::make_move_iterator(loaded.begin()), std::make_move_iterator(loaded.end()));
  }
  if (!errors.empty()) throw_errors(errors);
  if (all.empty()) throw InputError(fmt::format("no workloads found in {}", fmt::join(paths, ", ")));
  return all;
}

}  // namespace kbench
