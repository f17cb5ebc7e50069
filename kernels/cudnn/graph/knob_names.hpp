#pragma once
// cudnn-frontend's knob types (its KnobType_t, whose values it keeps append-only) by name, so that an
// engine config's variant name reads "TILEK=2" without this header including the frontend.
// graph_frontend.cpp checks every entry against the frontend's own enumerators at compile time.
#include <array>
#include <cstdint>
#include <string_view>

namespace kbench::gpu {

struct KnobName {
  std::int64_t type;
  std::string_view name;
};

inline constexpr std::array<KnobName, 42> kKnobNames = {{
    {1, "SWIZZLE"},        {2, "TILE_SIZE"},       {3, "EDGE"},
    {4, "MULTIPLY"},       {5, "SPLIT_K_BUF"},     {6, "TILEK"},
    {7, "STAGES"},         {8, "REDUCTION_MODE"},  {9, "SPLIT_K_SLC"},
    {10, "IDX_MODE"},      {11, "SPECFILT"},       {12, "KERNEL_CFG"},
    {13, "WORKSPACE"},     {14, "TILE_CGA_M"},     {15, "TILE_CGA_N"},
    {16, "BLOCK_SIZE"},    {17, "OCCUPANCY"},      {18, "ARRAY_SIZE_PER_THREAD"},
    {19, "SPLIT_COLS"},    {20, "TILE_ROWS"},      {21, "TILE_COLS"},
    {22, "LOAD_SIZE"},     {23, "CTA_COUNT"},      {24, "STREAM_K"},
    {25, "SPLIT_P_SLC"},   {26, "TILE_M"},         {27, "TILE_N"},
    {28, "WARP_SPEC_CFG"}, {29, "SWAP_AB"},        {30, "INPUT_TMA_ENABLE"},
    {31, "OUTPUT_TMA_ENABLE"}, {32, "TILE_CGA"},   {1000, "SCHED_POLICY"},
    {1001, "PACK_GQA"},    {1002, "SPLIT_KV"},     {1003, "PIPELINE_ARCH"},
    {1004, "MMA_TILE_M"},  {1005, "MMA_TILE_N"},   {1006, "MMA_TILE_K"},
    {1007, "CTA_GROUP"},   {1008, "WARPS_M"},      {1009, "WARPS_N"},
}};

// The type of the knob called `name` (exact, upper case), or -1.
constexpr std::int64_t knob_type_of(std::string_view name) {
  for (const KnobName& k : kKnobNames)
    if (k.name == name) return k.type;
  return -1;
}

}  // namespace kbench::gpu
