#include "report/plan_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kbench {

namespace {

using ojson = nlohmann::ordered_json;

std::string device_line(const PlanReport& r) {
  const PlanDevice& d = r.device;
  return fmt::format("{} (compute capability {}.{}, {} SMs; {})", d.name, d.cc_major, d.cc_minor,
                     d.sms > 0 ? std::to_string(d.sms) : "?", r.device_source);
}

// "cuda:implicit_gemm_tf32" for a named variant, "reference" for a backend's only kernel.
std::string spelled(const std::string& backend, const std::string& variant) {
  return variant.empty() ? backend : backend + ":" + variant;
}

std::size_t key_width(const std::vector<std::pair<std::string, std::string>>& properties) {
  std::size_t width = 0;
  for (const auto& [key, value] : properties) width = std::max(width, key.size());
  return width;
}

void write_properties(const VariantPlan& v, std::ostream& out) {
  const std::size_t width = key_width(v.properties);
  for (const auto& [key, value] : v.properties) out << fmt::format("      {:<{}}  {}\n", key, width, value);
}

void write_entry_text(const PlanEntry& e, std::ostream& out, bool verbose) {
  const std::string heading = fmt::format("  {} {}", spelled(e.backend, e.variant), to_string(e.math));
  if (!e.plan.support) {
    out << fmt::format("{}: not planned: {}\n", heading, e.plan.support.reason);
  } else {
    const VariantPlan& chosen = e.plan.variants.front();
    out << fmt::format("{}: {} ({})\n", heading, chosen.implementation, spelled(e.backend, chosen.variant));
    write_properties(chosen, out);
    if (e.plan.variants.size() > 1) {
      out << fmt::format("    {}:all also runs:\n", e.backend);
      for (std::size_t i = 1; i < e.plan.variants.size(); ++i) {
        const VariantPlan& v = e.plan.variants[i];
        out << fmt::format("      {:<44} {}\n", spelled(e.backend, v.variant), v.implementation);
        if (verbose) write_properties(v, out);
      }
    }
  }
  if (!e.plan.ruled_out.empty()) {
    out << "    ruled out:\n";
    const std::size_t width = key_width(e.plan.ruled_out);
    for (const auto& [variant, why] : e.plan.ruled_out) out << fmt::format("      {:<{}}  {}\n", variant, width, why);
  }
}

ojson properties_json(const std::vector<std::pair<std::string, std::string>>& properties) {
  ojson out = ojson::object();
  for (const auto& [key, value] : properties) out[key] = value;
  return out;
}

ojson entry_json(const PlanEntry& e) {
  ojson j;
  j["workload"] = e.workload;
  j["problem"] = e.problem;
  j["backend"] = e.backend;
  j["variant_requested"] = e.variant;
  j["math"] = std::string(to_string(e.math));
  j["planned"] = e.plan.support.ok;
  if (!e.plan.support) j["reason"] = e.plan.support.reason;
  ojson variants = ojson::array();
  for (std::size_t i = 0; i < e.plan.variants.size(); ++i) {
    const VariantPlan& v = e.plan.variants[i];
    variants.push_back({{"variant", v.variant},
                        {"implementation", v.implementation},
                        {"runs", i == 0},
                        {"properties", properties_json(v.properties)}});
  }
  j["variants"] = std::move(variants);
  ojson ruled_out = ojson::array();
  for (const auto& [variant, why] : e.plan.ruled_out) ruled_out.push_back({{"variant", variant}, {"reason", why}});
  j["ruled_out"] = std::move(ruled_out);
  return j;
}

}  // namespace

void write_plan_text(const PlanReport& report, std::ostream& out, bool verbose) {
  out << fmt::format("Plans for {}\n", device_line(report));
  std::string workload;
  for (const PlanEntry& e : report.entries) {
    if (e.workload != workload) {
      workload = e.workload;
      out << fmt::format("\n{}  {}\n", e.workload, e.problem);
    }
    write_entry_text(e, out, verbose);
  }
}

void write_plan_json(const PlanReport& report, std::ostream& out) {
  ojson doc;
  doc["schema"] = "kbench.plan/1";
  doc["device"] = {{"name", report.device.name},
                   {"compute_capability", fmt::format("{}.{}", report.device.cc_major, report.device.cc_minor)},
                   {"sms", report.device.sms},
                   {"present", report.device.present},
                   {"source", report.device_source}};
  ojson entries = ojson::array();
  for (const PlanEntry& e : report.entries) entries.push_back(entry_json(e));
  doc["plans"] = std::move(entries);
  out << doc.dump(2) << "\n";
}

}  // namespace kbench
