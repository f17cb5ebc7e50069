#include "report/table.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "report/format.hpp"

namespace kbench::report {

namespace {

constexpr std::string_view kSeparator = "  ";

std::string_view ansi_code(Tone tone) {
  switch (tone) {
    case Tone::good: return "\x1b[32m";
    case Tone::bad: return "\x1b[31m";
    case Tone::warn: return "\x1b[33m";
    case Tone::plain: break;
  }
  return "";
}

void trim_trailing_blanks(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}

}  // namespace

std::string paint(std::string_view text, Tone tone) {
  if (tone == Tone::plain || text.empty()) return std::string(text);
  std::string out(ansi_code(tone));
  out += text;
  out += "\x1b[0m";
  return out;
}

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<Cell> cells) {
  cells.resize(columns_.size());
  rows_.push_back({std::move(cells), false, {}});
}

void Table::add_row(std::vector<Cell> leading, Cell tail) {
  // The tail needs at least the last column: leading cells beyond that would push it off the table.
  if (!columns_.empty() && leading.size() >= columns_.size()) leading.resize(columns_.size() - 1);
  rows_.push_back({std::move(leading), true, std::move(tail)});
}

std::vector<std::size_t> Table::layout(std::size_t max_width, std::size_t indent_width, std::vector<bool>& shown) const {
  shown.assign(columns_.size(), true);
  for (;;) {
    std::vector<std::size_t> widths = shrink(max_width, indent_width, shown);
    const std::size_t columns = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), true));
    const std::size_t gaps = columns == 0 ? 0 : (columns - 1) * kSeparator.size();
    const std::size_t total = indent_width + gaps + std::accumulate(widths.begin(), widths.end(), std::size_t{0});
    if (total <= max_width) return widths;
    // Too wide even cut: leave out the next column in drop order, if any is left.
    std::size_t next = columns_.size();
    for (std::size_t c = 0; c < columns_.size(); ++c)
      if (shown[c] && columns_[c].drop_order > 0 &&
          (next == columns_.size() || columns_[c].drop_order > columns_[next].drop_order))
        next = c;
    if (next == columns_.size()) return widths;
    shown[next] = false;
  }
}

std::vector<std::size_t> Table::shrink(std::size_t max_width, std::size_t indent_width,
                                       const std::vector<bool>& shown) const {
  std::vector<std::size_t> widths(columns_.size(), 0);
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (shown[c]) widths[c] = display_width(columns_[c].header);
  for (const Row& row : rows_)
    for (std::size_t c = 0; c < row.cells.size(); ++c)
      if (shown[c]) widths[c] = std::max(widths[c], display_width(row.cells[c].text));

  const auto total = [&] {
    const std::size_t columns = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), true));
    const std::size_t gaps = columns == 0 ? 0 : (columns - 1) * kSeparator.size();
    return indent_width + gaps + std::accumulate(widths.begin(), widths.end(), std::size_t{0});
  };
  // Take one column at a time from the widest shrinkable column, so several shrinkable columns
  // end up cut to similar widths rather than one of them vanishing.
  while (total() > max_width) {
    std::size_t widest = columns_.size();
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::size_t floor = std::max(columns_[c].min_width, display_width(columns_[c].header));
      if (shown[c] && columns_[c].shrinkable && widths[c] > floor &&
          (widest == columns_.size() || widths[c] > widths[widest]))
        widest = c;
    }
    if (widest == columns_.size()) break;  // nothing left to cut: the table is as narrow as it gets
    --widths[widest];
  }
  return widths;
}

RenderedTable Table::render(std::size_t max_width, bool color, std::string_view indent) const {
  const std::size_t indent_width = display_width(indent);
  std::vector<bool> shown;
  const std::vector<std::size_t> widths = layout(max_width, indent_width, shown);
  RenderedTable out;
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (!shown[c]) out.dropped.push_back(columns_[c].header);

  // A shrinkable column's texts are cut together, so names that differ still differ once cut.
  std::vector<std::vector<std::string>> cut(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (!columns_[c].shrinkable || !shown[c]) continue;
    std::vector<std::string> texts;
    for (const Row& row : rows_) texts.push_back(c < row.cells.size() ? row.cells[c].text : std::string());
    cut[c] = shorten_apart(texts, widths[c]);
  }

  const auto append_cell = [&](std::string& line, const std::string& text, Tone tone, std::size_t c) {
    const std::string padding(widths[c] - std::min(widths[c], display_width(text)), ' ');
    const std::string painted = color ? paint(text, tone) : text;
    line += columns_[c].align == Align::right ? padding + painted : painted + padding;
  };

  std::string header(indent);
  std::size_t used = indent_width;
  bool first = true;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (!shown[c]) continue;
    if (!first) header += kSeparator;
    const std::string text = columns_[c].shrinkable ? shorten_middle(columns_[c].header, widths[c]) : columns_[c].header;
    append_cell(header, text, Tone::plain, c);
    used += widths[c] + (first ? 0 : kSeparator.size());
    first = false;
  }
  trim_trailing_blanks(header);
  out.text += header + '\n';
  out.text += std::string(indent) + std::string(used - indent_width, '-') + '\n';

  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const Row& row = rows_[r];
    std::string line(indent);
    std::size_t position = indent_width;
    bool first_cell = true;
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (!shown[c]) continue;
      if (!first_cell) line += kSeparator;
      append_cell(line, columns_[c].shrinkable ? cut[c][r] : row.cells[c].text, row.cells[c].tone, c);
      position += widths[c] + (first_cell ? 0 : kSeparator.size());
      first_cell = false;
    }
    if (row.has_tail) {
      if (!first_cell) {
        line += kSeparator;
        position += kSeparator.size();
      }
      // The tail may use the full width even when the columns above it are narrower.
      const std::size_t room = max_width > position ? max_width - position : 0;
      const std::string tail = shorten_end(row.tail.text, room);
      if (tail != row.tail.text) out.shortened_tails.push_back(r);
      line += color ? paint(tail, row.tail.tone) : tail;
    }
    trim_trailing_blanks(line);
    out.text += line + '\n';
  }
  return out;
}

}  // namespace kbench::report
