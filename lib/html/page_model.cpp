#include "html/page_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kbench::html {

namespace {

// Okabe-Ito: distinguishable with the common colour-vision deficiencies, and printable.
constexpr std::array<const char*, 8> kColors = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};

bool same_peaks(const DevicePeaks& a, const DevicePeaks& b) {
  return a.name == b.name && a.source == b.source && a.bandwidth_Bps == b.bandwidth_Bps &&
         a.fp32_flops == b.fp32_flops && a.tf32_flops == b.tf32_flops &&
         a.half_tensor_flops(DType::fp16) == b.half_tensor_flops(DType::fp16) &&
         a.half_tensor_flops(DType::bf16) == b.half_tensor_flops(DType::bf16);
}

// "cudnn/IMPLICIT_GEMM tf32": the implementation without a repeat of the backend's name (cuDNN
// names its algorithms "cudnn:ALGO"), as in the text report's implementation column.
std::string entry_label(const Result& r, std::size_t document, bool several) {
  std::string what = r.implementation.empty() ? r.variant : r.implementation;
  const std::string prefix = r.backend + ":";
  if (what.size() > prefix.size() && what.compare(0, prefix.size(), prefix) == 0) what = what.substr(prefix.size());
  const bool ran = r.status == ResultStatus::ok || r.status == ResultStatus::wrong;
  return fmt::format("{}{}{}{} {}", several ? fmt::format("#{} ", document + 1) : "", r.backend,
                     what.empty() ? "" : "/", what, to_string(ran ? r.math_used : r.math_requested));
}

}  // namespace

void BackendPalette::assign(const std::string& backend) {
  for (const auto& [name, color] : assigned_)
    if (name == backend) return;
  assigned_.emplace_back(backend, kColors[assigned_.size() % kColors.size()]);
}

std::string BackendPalette::color_of(const std::string& backend) const {
  for (const auto& [name, color] : assigned_)
    if (name == backend) return color;
  return "#888888";
}

std::string device_title(const DevicePeaks& peaks) {
  std::string title = peaks.name.empty() ? "unknown device" : peaks.name;
  if (!peaks.source.empty()) title += fmt::format(" ({})", peaks.source);
  return title;
}

PageModel build_page_model(const std::vector<HtmlSource>& sources) {
  PageModel model;
  model.sources = &sources;
  const bool several = sources.size() > 1;
  for (std::size_t d = 0; d < sources.size(); ++d) {
    const RunReport& report = sources[d].report;
    auto group = std::find_if(model.devices.begin(), model.devices.end(),
                              [&](const DeviceGroup& g) { return same_peaks(g.peaks, report.peaks); });
    if (group == model.devices.end())
      model.devices.push_back({report.peaks, {d}});
    else
      group->documents.push_back(d);

    for (std::size_t i = 0; i < report.results.size(); ++i) {
      PageEntry entry;
      entry.id = fmt::format("r{}-{}", d, i);
      entry.document = d;
      entry.view = report::view_result(report.results[i], report);
      entry.plotted = entry.view.result->ran_on == ResultDevice::gpu && entry.view.timing &&
                      entry.view.achieved_flops && *entry.view.achieved_flops > 0 &&
                      entry.view.summary && entry.view.summary->metrics.arithmetic_intensity() > 0;
      entry.label = entry_label(report.results[i], d, several);
      model.entries.push_back(std::move(entry));
      model.palette.assign(model.palette_key(model.entries.back()));
    }
  }
  return model;
}

std::string PageModel::palette_key(const PageEntry& entry) const {
  const bool several = sources && sources->size() > 1;
  const std::string& backend = entry.view.result->backend;
  return several ? fmt::format("#{} {}", entry.document + 1, backend) : backend;
}

std::string PageModel::color_of(const PageEntry& entry) const { return palette.color_of(palette_key(entry)); }

std::vector<const PageEntry*> PageModel::entries_of(const DeviceGroup& device) const {
  std::vector<const PageEntry*> out;
  for (const PageEntry& entry : entries)
    if (std::find(device.documents.begin(), device.documents.end(), entry.document) != device.documents.end())
      out.push_back(&entry);
  return out;
}

std::vector<const WorkloadSummary*> PageModel::workloads_of(const DeviceGroup& device) const {
  std::vector<const WorkloadSummary*> out;
  for (std::size_t d : device.documents)
    for (const WorkloadSummary& summary : (*sources)[d].report.workloads)
      if (std::none_of(out.begin(), out.end(),
                       [&](const WorkloadSummary* s) { return s->workload.name == summary.workload.name; }))
        out.push_back(&summary);
  return out;
}

}  // namespace kbench::html
