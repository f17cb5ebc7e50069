#pragma once
// The registry of the cuda backend's kernel families: one descriptor each (common/family_descriptor.hpp,
// defined in the family's folder, listed in families.def), and the questions every caller asks of a
// choice, answered by looping over them: which families and variants can run a problem (their
// envelopes, with the checks all share, each asked once per resolution: EnvelopeScope), what a choice
// runs (its description, for a result after the run and `kbench plan` before one), what it needs of
// the device's architecture, and its `cuda:VARIANT` name read back with the reason a part is refused.
// A new family adds its descriptor's header to the includes below. Plain C++ with no CUDA include:
// unit-tested on the CPU.
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/support.hpp"
#include "cuda/common/family_descriptor.hpp"
#include "cuda/common/kernel_choice.hpp"
#include "cuda/depthwise/depthwise_family.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc_family.hpp"
#include "cuda/direct/direct_family.hpp"
#include "cuda/direct/direct_tiled_family.hpp"
#include "cuda/half_gemm/half_gemm_family.hpp"
#include "cuda/transposed_phase_half/half_phase_family.hpp"
#include "cuda/implicit_gemm/implicit_gemm_family.hpp"
#include "cuda/passes/pass_problem.hpp"
#include "cuda/transposed/as_forward_description.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "cuda/transposed/transposed_phase_family.hpp"
#include "cuda/wgrad/wgrad_depthwise_family.hpp"
#include "cuda/wgrad/wgrad_family.hpp"
#include "spec/did_you_mean.hpp"

namespace kbench::gpu::conv {

// In families.def's order, which is kAllFamilies' and the enum's.
inline constexpr const FamilyDescriptor* kFamilyTable[] = {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) &descriptor,
#include "cuda/families.def"
};

namespace family_table_detail {
// Each row's descriptor describes the family its row names, so descriptor(f) is kFamilyTable[f].
constexpr bool rows_match() {
  for (std::size_t i = 0; i < std::size(kFamilyTable); ++i)
    if (kFamilyTable[i]->family != kAllFamilies[i] || static_cast<std::size_t>(kAllFamilies[i]) != i) return false;
  return true;
}
}  // namespace family_table_detail
static_assert(family_table_detail::rows_match(), "a families.def row names another family's descriptor");

inline const FamilyDescriptor& descriptor(Family f) {
  const auto row = static_cast<std::size_t>(f);
  if (row >= std::size(kFamilyTable))
    throw std::logic_error(fmt::format("no descriptor for kernel family {}", static_cast<int>(f)));
  return *kFamilyTable[row];
}

// The backend's one line for `kbench list`, from the descriptors: each family's name (as `cuda:NAME`
// spells it) and summary, in the table's order, then what runs on them besides.
inline std::string backend_description() {
  std::string text = "kbench's own CUDA kernels, by family (`cuda:NAME`): ";
  for (std::size_t i = 0; i < std::size(kFamilyTable); ++i)
    text += fmt::format("{}{}: {}", i == 0 ? "" : "; ", family_name(kFamilyTable[i]->family), kFamilyTable[i]->summary);
  return text +
         ". A stride-1 transposed convolution may run as the forward convolution it equals, backward_data as the "
         "forward pass of its backward-data problem";
}

// The problem family `f` runs in place of forward problem `p`: a stride-1 transposed convolution's
// forward equivalent (forward_equivalent.hpp) for the families that take it; nullopt where `f` runs
// `p` itself. A backward_data problem is first its forward problem (families_problem).
inline std::optional<ConvProblem> forward_problem_for(Family f, const ConvProblem& p) {
  if (!descriptor(f).runs_forward_equivalent || p.pass != Pass::forward) return std::nullopt;
  // The weights' rewrite (transposed/forward_weights_kernel.cuh) is fp32 NCHW: other tensors run as they are.
  if (p.dtype != DType::fp32 || p.layout != Layout::nchw) return std::nullopt;
  return forward_equivalent(p);
}

inline ConvProblem problem_for(Family f, const ConvProblem& p) {
  const ConvProblem runs = families_problem(p);
  return forward_problem_for(f, runs).value_or(runs);
}

// Whether family descriptor `d` computes `p`'s pass: a forward family computes backward_data as the
// forward pass of its backward_data_problem.
inline bool computes_pass(const FamilyDescriptor& d, const ConvProblem& p) {
  const Pass pass = p.pass == Pass::backward_data ? Pass::forward : p.pass;
  return (d.passes & pass_bit(pass)) != 0;
}

// Whether the backend computes this problem at all: some family takes its element type and layout,
// and the reference can compute it; then `direct` always can (every dtype and layout, and every index
// and coordinate of it is 64-bit, so no extent a spec allows is too long for it).
// A backward_data problem: its backward_data_problem must exist (backward_data_support) and be
// supported as a forward problem.
inline Support problem_supported(const ConvProblem& p) {
  if (p.pass == Pass::backward_data) {
    if (Support s = backward_data_support(p); !s)
      return Support::no(fmt::format("the cuda backend runs backward_data as a forward convolution, and {}", s.reason));
    const ConvProblem forward = backward_data_problem(p);
    if (Support s = problem_supported(forward); !s) return Support::no(s.reason + backward_data_context(forward));
    return reference_computable(p);
  }
  bool any = false;
  for (const FamilyDescriptor* d : kFamilyTable)
    any = any ||
          (computes_pass(*d, p) && (d->dtypes & dtype_bit(p.dtype)) != 0 && (d->layouts & layout_bit(p.layout)) != 0);
  if (!any)
    return Support::no(
        p.pass == Pass::forward
            ? fmt::format("the cuda backend has no kernel for {} {} tensors", to_string(p.dtype), to_string(p.layout))
            : fmt::format("the cuda backend has no kernel for the {} pass of {} {} tensors", to_string(p.pass),
                          to_string(p.dtype), to_string(p.layout)));
  return reference_computable(p);
}

// --- One envelope question per result ---------------------------------------------------------
// Resolving one result asks several questions that reach the same envelope: the default policy tries
// families in turn (and a stride-1 transposed problem's policy asks its forward equivalent's), `cuda:all`
// lists every family and variant and then ranks them by the default, `kbench plan` lists the families
// ruled out after the variants. An EnvelopeScope, open for the length of one resolution, keeps each
// answer, so each choice's envelope is evaluated once per problem however often it is asked. Scopes
// nest: the outermost one holds the answers. Its answers are kept in place (no heap beyond their
// reasons' strings), up to kEnvelopeAnswers; past that, answers are recomputed (a resolution asks
// about 14 families on at most three problems: the problem, its backward_data or forward-equivalent
// one, and their variants).
inline constexpr std::size_t kEnvelopeAnswers = 96;

struct EnvelopeAnswer {
  KernelChoice choice;
  ConvProblem problem;
  MathMode math = MathMode::fp32;
  Support answer;
};

class EnvelopeScope;

namespace envelope_detail {
inline thread_local EnvelopeScope* open_scope = nullptr;
}  // namespace envelope_detail

// Called with each envelope actually evaluated (not answered from a scope); null outside tests, which
// count with it that a result asks each envelope once (test_cuda_resolution.cpp).
inline thread_local void (*envelope_evaluated)(const KernelChoice& choice, const ConvProblem& problem) = nullptr;

class EnvelopeScope {
 public:
  // The outermost scope holds the answers; a nested one builds none (it only marks where a question
  // may repeat).
  EnvelopeScope() : outer_(envelope_detail::open_scope) {
    if (outer_) return;
    answers_.emplace();
    envelope_detail::open_scope = this;
  }
  ~EnvelopeScope() {
    if (!outer_) envelope_detail::open_scope = nullptr;
  }
  EnvelopeScope(const EnvelopeScope&) = delete;
  EnvelopeScope& operator=(const EnvelopeScope&) = delete;

  // The kept answer to (choice, problem, math), or null. Asked of the outermost scope.
  const Support* find(const KernelChoice& c, const ConvProblem& p, MathMode math) const {
    for (std::size_t i = 0; i < answers_->count; ++i) {
      const EnvelopeAnswer& a = answers_->rows[i];
      if (a.math == math && a.choice == c && a.problem == p) return &a.answer;
    }
    return nullptr;
  }
  void keep(const KernelChoice& c, const ConvProblem& p, MathMode math, const Support& answer) {
    if (answers_->count < kEnvelopeAnswers) answers_->rows[answers_->count++] = EnvelopeAnswer{c, p, math, answer};
  }

 private:
  struct Answers {
    std::array<EnvelopeAnswer, kEnvelopeAnswers> rows{};
    std::size_t count = 0;
  };
  EnvelopeScope* outer_;
  std::optional<Answers> answers_;  // engaged in the outermost scope only
};

inline Support choice_envelope(const KernelChoice& c, const ConvProblem& p, MathMode math);

namespace envelope_detail {

// The checks every family shares, then the family's own envelope.
inline Support evaluate(const KernelChoice& c, const ConvProblem& p, MathMode math) {
  if (Support s = problem_supported(p); !s) return s;
  const FamilyDescriptor& family = descriptor(c.family);
  const std::string_view name = family_name(c.family);
  if (!computes_pass(family, p))
    return Support::no(fmt::format("{}: does not compute the {} pass", name, to_string(p.pass)));
  if (p.pass == Pass::backward_data) {
    const ConvProblem forward = backward_data_problem(p);
    Support s = choice_envelope(c, forward, math);
    if (!s) s.reason += backward_data_context(forward);
    return s;
  }
  if (!(family.dtypes & dtype_bit(p.dtype)))
    return Support::no(fmt::format("{}: does not compute {} tensors", name, to_string(p.dtype)));
  if (!(family.layouts & layout_bit(p.layout)))
    return Support::no(fmt::format("{}: does not read {} tensors", name, to_string(p.layout)));
  for (const VariantKnob& knob : kVariantKnobs)
    if (!knob.part(c).empty() && !(family.knobs & knob.bit))
      return Support::no(fmt::format("{}: its variants force no {} ('{}')", name, knob.what, knob.part(c)));
  if (family.computes_in == MathMode::tf32 && math != MathMode::tf32)
    return Support::no(fmt::format("{} rounds to TF32, which math fp32 forbids", name));
  if (const std::optional<ConvProblem> forward = forward_problem_for(c.family, p)) {
    // The shape's reasons are the forward problem's: say so, or a padding the spec does not have puzzles.
    Support s = choice_envelope(c, *forward, math);
    if (!s)
      s.reason += fmt::format(" (as the forward convolution this stride-1 transposed one equals, padding {})",
                              padding_text(*forward));
    return s;
  }
  if (!family.any_extent)
    if (Support s = fast_path_extents(p); !s) return s;
  if (envelope_evaluated) envelope_evaluated(c, p);
  return family.envelope(c, p, math);
}

}  // namespace envelope_detail

// Whether choice `c` runs `p` under `math`: the checks every family shares, then the family's own
// envelope; answered from the open EnvelopeScope where it was asked before.
inline Support choice_envelope(const KernelChoice& c, const ConvProblem& p, MathMode math) {
  EnvelopeScope* scope = envelope_detail::open_scope;
  if (!scope) return envelope_detail::evaluate(c, p, math);
  if (const Support* kept = scope->find(c, p, math)) return *kept;
  Support answer = envelope_detail::evaluate(c, p, math);
  scope->keep(c, p, math, answer);
  return answer;
}

inline Support family_envelope(Family f, const ConvProblem& p, MathMode math) {
  return choice_envelope(KernelChoice{.family = f}, p, math);
}

inline std::vector<Family> applicable_families(const ConvProblem& p, MathMode math) {
  std::vector<Family> out;
  for (const FamilyDescriptor* d : kFamilyTable)
    if (family_envelope(d->family, p, math)) out.push_back(d->family);
  return out;
}

// `choice` must lie in its envelope for `problem` (choice_envelope).
inline KernelDescription describe_kernel(const KernelChoice& choice, const ConvProblem& problem,
                                         const LaunchDevice& device) {
  if (problem.pass == Pass::backward_data) {
    const ConvProblem forward = backward_data_problem(problem);
    return as_backward_data_description(describe_kernel(choice, forward, device), forward);
  }
  if (const std::optional<ConvProblem> forward = forward_problem_for(choice.family, problem))
    return as_forward_description(describe_kernel(choice, *forward, device), *forward);
  return descriptor(choice.family).describe(choice, problem, device);
}

// What the choice's instructions need; nullopt when any device this build targets runs it.
inline std::optional<ArchitectureNeed> architecture_need(const KernelChoice& choice) {
  return descriptor(choice.family).architecture_need(choice);
}

// Whether the choice drives Hopper's asynchronous units (wgmma, bulk copies and their mbarriers):
// exactly the choices with an architecture need today.
inline bool uses_async_units(const KernelChoice& c) { return architecture_need(c).has_value(); }

// Whether no_split_k runs anything but its family's default on a device of `sms` SMs: where the
// default would not split any of its GEMMs there, it is the default under another name, which
// `cuda:all`, the exhaustive search and `kbench plan` leave out. yes for every other choice, and where
// the SMs are unknown (0).
inline Support split_variant_on_device(const KernelChoice& choice, const ConvProblem& problem, int sms) {
  return descriptor(choice.family).differs_on_device(choice, problem_for(choice.family, problem), sms);
}

// --- Variant names, read back --------------------------------------------------------------------
// Reading a `cuda:VARIANT` name: the family, then the parts its descriptor's knobs take, in the
// order of kVariantKnobs (common/kernel_choice.hpp, which also writes names back), each at most once;
// anything else is refused with the part and what the family takes. The grammar the messages and
// docs/kernels.md show is written from the same table. Plain C++, unit-tested on the CPU
// (test_cuda_variant_names.cpp).

// One family's names: "implicit_gemm_tf32[/channel_blocks|/k_table|/input_patch][...]...", each
// bracketed part optional, in that order.
inline std::string variant_grammar(const FamilyDescriptor& d) {
  return std::string(family_name(d.family)) + knob_grammar(d.knobs);
}

// Every family's names, in kFamilyTable's order: "direct, depthwise2d[/split_stores|...], ...".
inline std::string variant_grammar() {
  std::string text;
  for (const FamilyDescriptor* d : kFamilyTable) {
    if (!text.empty()) text += ", ";
    text += variant_grammar(*d);
  }
  return text;
}

// A variant name read: the choice, or why there is none.
struct VariantParse {
  std::optional<KernelChoice> choice;
  std::string error;  // the part refused and what the family takes
};

namespace variant_names_detail {

// The row of kVariantKnobs, from `first` on, of a knob family `d` takes that reads `part` into `c`;
// std::size(kVariantKnobs) where none does.
inline std::size_t read_knob(const FamilyDescriptor& d, std::string_view part, std::size_t first, KernelChoice& c) {
  for (std::size_t row = first; row < std::size(kVariantKnobs); ++row)
    if ((d.knobs & kVariantKnobs[row].bit) && kVariantKnobs[row].read(part, c)) return row;
  return std::size(kVariantKnobs);
}

// Why family `d` refuses `part` after `previous` (the last part it read; "" after the name), the
// parts before it read into `read`.
inline std::string refusal(const FamilyDescriptor& d, std::string_view part, std::string_view previous,
                           const KernelChoice& read) {
  const std::string_view family = family_name(d.family);
  const std::string takes = d.knobs == 0 ? fmt::format("{} takes no knobs", family)
                                         : fmt::format("{}'s variants are {} (each [...] optional, in that order)",
                                                       family, variant_grammar(d));
  if (part.empty()) return fmt::format("an empty part; {}", takes);
  for (const VariantKnob& knob : kVariantKnobs) {
    KernelChoice probe;
    if (!knob.read(part, probe)) continue;
    if (!(d.knobs & knob.bit)) return fmt::format("'{}' ({}) is no knob of {}; {}", part, knob.what, family, takes);
    if (!knob.part(read).empty())
      return fmt::format("'{}' is a second {} after '{}'; {}", part, knob.what, knob.part(read), takes);
    return fmt::format("'{}' ({}) must come before '{}'; {}", part, knob.what, previous, takes);
  }
  return fmt::format("'{}' names no knob; {}", part, takes);
}

}  // namespace variant_names_detail

// "family/knob/...", as variant_name writes it.
inline VariantParse parse_variant_with_reason(std::string_view name) {
  std::size_t slash = name.find('/');
  const std::string_view family_part = name.substr(0, slash);
  const std::optional<Family> family = parse_family(family_part);
  if (!family) {
    std::vector<std::string_view> families;
    for (const FamilyDescriptor* d : kFamilyTable) families.push_back(family_name(d->family));
    return {std::nullopt, fmt::format("no kernel family '{}'{} (known: {})", family_part,
                                      spec::did_you_mean_suffix(family_part, families), variant_grammar())};
  }
  const FamilyDescriptor& d = descriptor(*family);
  KernelChoice c{.family = *family};
  std::size_t next = 0;  // the first row of kVariantKnobs the next part may name
  std::string_view previous;
  while (slash != std::string_view::npos) {
    name = name.substr(slash + 1);
    slash = name.find('/');
    const std::string_view part = name.substr(0, slash);
    const std::size_t row = variant_names_detail::read_knob(d, part, next, c);
    if (row == std::size(kVariantKnobs)) return {std::nullopt, variant_names_detail::refusal(d, part, previous, c)};
    next = row + 1;
    previous = part;
  }
  return {c, {}};
}

inline std::optional<KernelChoice> parse_variant(std::string_view name) {
  return parse_variant_with_reason(name).choice;
}

// --- What a choice needs of the device's architecture --------------------------------------------
// What a cuda kernel choice needs of the device's architecture. Every choice runs on any device this
// build targets, except two kinds that use Hopper instructions: the wgmma ones, whose kernel
// (igemm_wgmma.cu) is built for sm_90a alone (an sm_90a image loads on compute capability 9.0
// devices only: H100, H200), and depthwise2d/bulk_copies and /bulk_pipelined, whose bulk copies
// (cp.async.bulk) need compute capability 9.0 or later. Plain C++: the backend asks it of the device
// present (device_support.cpp), `kbench plan` of a --target GPU, the unit tests of both.

// yes when a device of compute capability major.minor meets `need`; else no, naming what it needs
// and what `device_name` is.
inline Support meets_need(const ArchitectureNeed& need, int major, int minor, std::string_view device_name) {
  if (need.accepts(major, minor)) return Support::yes();
  return Support::no(fmt::format("{} needs {}; {} is {}.{}", need.feature, need.needs, device_name, major, minor));
}

// yes when a device of compute capability major.minor runs the choice; else no, naming what it
// needs and what `device_name` ("device 0", "NVIDIA A100 40GB") is.
inline Support choice_runs_on_capability(const KernelChoice& choice, int major, int minor,
                                         std::string_view device_name) {
  const std::optional<ArchitectureNeed> need = architecture_need(choice);
  return need ? meets_need(*need, major, minor, device_name) : Support::yes();
}

}  // namespace kbench::gpu::conv
