#pragma once
// What the HTML page is drawn from: every result of every input document with its stable id, the
// devices (one roofline chart each) and a colour per backend shared by every chart.
#include <cstddef>
#include <string>
#include <vector>

#include "html/html_report.hpp"
#include "report/result_view.hpp"

namespace kbench::html {

struct PageEntry {
  std::string id;  // "r<document>-<result>": ties a table row to its chart marks
  std::size_t document = 0;
  report::ResultView view;  // points into the document's RunReport
  // On the charts: verified, timed, run on the GPU (a CPU result is never drawn under a GPU's roofs), and
  // its workload's numbers are known (arithmetic intensity).
  bool plotted = false;
  std::string label;  // "cudnn/IMPLICIT_GEMM fp32", prefixed "#2 " when the page has several runs
};

// Documents whose floors were computed against the same peaks share a device, and so a roofline.
struct DeviceGroup {
  DevicePeaks peaks;
  std::vector<std::size_t> documents;
};

class BackendPalette {
 public:
  // A colour per backend name, assigned in order of first use: colour-blind-safe hues.
  void assign(const std::string& backend);
  // The assigned colour; grey for a backend never assigned.
  std::string color_of(const std::string& backend) const;
  const std::vector<std::pair<std::string, std::string>>& assigned() const { return assigned_; }

 private:
  std::vector<std::pair<std::string, std::string>> assigned_;
};

struct PageModel {
  const std::vector<HtmlSource>* sources = nullptr;
  std::vector<PageEntry> entries;  // document order, then run order
  std::vector<DeviceGroup> devices;
  BackendPalette palette;

  std::vector<const PageEntry*> entries_of(const DeviceGroup& device) const;
  // An entry's colour: its backend's, or with several runs on the page its run's and backend's, so two
  // runs of the same backend can be told apart.
  std::string color_of(const PageEntry& entry) const;
  // The palette key of an entry: "cudnn", or "#2 cudnn" when the page has several runs.
  std::string palette_key(const PageEntry& entry) const;
  // Workload summaries of the device's documents, one per name, in order of first appearance.
  std::vector<const WorkloadSummary*> workloads_of(const DeviceGroup& device) const;
};

PageModel build_page_model(const std::vector<HtmlSource>& sources);

// "NVIDIA H100 SXM5 80GB (datasheet)".
std::string device_title(const DevicePeaks& peaks);

}  // namespace kbench::html
