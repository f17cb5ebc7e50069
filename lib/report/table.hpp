#pragma once
// A column-aligned plain-text table that fits a given width. Widths count display columns, not
// bytes, so 'µ' and '×' line up. One column may be marked shrinkable: when the table is too wide
// its cells are shortened in the middle ("cudnn:IMPL…_GEMM") rather than wrapping the line.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kbench::report {

enum class Align { left, right };

// How a cell is coloured when colour is on: ok, a failure, or something that did not run.
enum class Tone { plain, good, bad, warn };

// ANSI colour around `text` for `tone`; the text unchanged for Tone::plain.
std::string paint(std::string_view text, Tone tone);

struct Column {
  std::string header;
  Align align = Align::left;
  bool shrinkable = false;
  std::size_t min_width = 8;  // how far a shrinkable column may be cut
  // When cutting is not enough to fit the width, columns with a drop_order are left out, the highest
  // first (a figure the JSON keeps, rather than a wrapped line); 0: always shown.
  int drop_order = 0;
};

struct Cell {
  std::string text;
  Tone tone = Tone::plain;
};

struct RenderedTable {
  std::string text;                          // every line ends in '\n', no trailing blanks
  std::vector<std::size_t> shortened_tails;  // rows (0-based, in add order) whose tail was cut
  std::vector<std::string> dropped;          // headers of the columns left out to fit
};

class Table {
 public:
  explicit Table(std::vector<Column> columns);

  // A row with a cell for every column (missing trailing cells are left blank).
  void add_row(std::vector<Cell> cells);
  // A row whose first cells fill the first columns and whose `tail` runs across all the others,
  // e.g. a status and its reason where the numbers would be. The tail never widens a column.
  // At most (columns - 1) leading cells are kept, so the tail always has a column to start in.
  void add_row(std::vector<Cell> leading, Cell tail);

  // Lines prefixed by `indent`, at most `max_width` columns wide when the shrinkable columns allow.
  RenderedTable render(std::size_t max_width, bool color, std::string_view indent = "") const;

 private:
  struct Row {
    std::vector<Cell> cells;
    bool has_tail = false;
    Cell tail;
  };
  // Widths per column; a dropped column's is 0 and it is marked in `shown`.
  std::vector<std::size_t> layout(std::size_t max_width, std::size_t indent_width, std::vector<bool>& shown) const;
  // The shown columns' widths, shrinkable ones cut toward max_width.
  std::vector<std::size_t> shrink(std::size_t max_width, std::size_t indent_width, const std::vector<bool>& shown) const;

  std::vector<Column> columns_;
  std::vector<Row> rows_;
};

}  // namespace kbench::report
