#include "spec/yaml_documents.hpp"

#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include <fmt/format.h>

#include "spec/sweep_expansion.hpp"

namespace kbench::spec {

namespace {

// yaml-cpp 0.7's LoadAll never returns on some malformed input (a ',' outside brackets where a node
// should start: jbeder/yaml-cpp#1040, fixed upstream after 0.8): the parser emits an empty document at
// the same token forever, allocating as it goes. This handler watches a dry run of the same parse for
// exactly that — a document holding only a null, at the same position as the previous one — so the
// real load only runs on input known to finish.
class ProgressGuard : public YAML::EventHandler {
 public:
  explicit ProgressGuard(const SpecReader& reader) : reader_(reader) {}

  void OnDocumentStart(const YAML::Mark&) override {
    events_in_document_ = 0;
    null_mark_ = YAML::Mark::null_mark();
  }
  void OnDocumentEnd() override {
    const bool only_a_null = events_in_document_ == 1 && !null_mark_.is_null();
    if (only_a_null && has_previous_ && null_mark_.pos == previous_null_.pos)
      reader_.fail(position_of(null_mark_), "invalid YAML",
                   "the parser cannot continue at this character; expected well-formed YAML (a ',' belongs "
                   "inside [...] or {...})");
    has_previous_ = only_a_null;
    previous_null_ = null_mark_;
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    ++events_in_document_;
    null_mark_ = mark;
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++events_in_document_; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {
    ++events_in_document_;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++events_in_document_;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++events_in_document_;
  }
  void OnMapEnd() override {}

 private:
  const SpecReader& reader_;
  std::size_t events_in_document_ = 0;
  YAML::Mark null_mark_ = YAML::Mark::null_mark();
  YAML::Mark previous_null_ = YAML::Mark::null_mark();
  bool has_previous_ = false;
};

[[noreturn]] void fail_syntax(const SpecReader& reader, const YAML::Exception& error) {
  reader.fail(position_of(error.mark), "invalid YAML", fmt::format("{}; expected well-formed YAML", error.msg));
}

}  // namespace

std::vector<YAML::Node> load_documents(const SpecReader& reader, const std::string& text) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    ProgressGuard guard(reader);
    while (parser.HandleNextDocument(guard)) {
    }
    // Sweeps become their points here, so every reader of documents sees plain workloads. (A new
    // vector: assigning to a yaml-cpp node would rebind the node the points refer to.)
    std::vector<YAML::Node> documents;
    for (const YAML::Node& document : YAML::LoadAll(text)) documents.push_back(expand_sweeps(reader, document));
    return documents;
  } catch (const YAML::Exception& error) {
    // Parser errors (and yaml-cpp's nesting-depth guard) carry a mark; report them like any other spec error.
    fail_syntax(reader, error);
  }
}

}  // namespace kbench::spec
