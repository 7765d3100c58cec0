// RUN: %mlir-diff %s
// RUN: %mlir-opt %s --split-input-file | filecheck %s
// RUN: xgpu-opt %s --split-input-file | filecheck %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The entry lists take `#dlti.dl_entry<key, value>` (the form before MLIR 20),
// mixed with `key = value`, with string or type keys, and print the latter.
// CHECK: a = #dlti.dl_spec<"dlti.endianness" = "little">
// CHECK-SAME: b = #dlti.dl_spec<index = 32 : i32>
// CHECK-SAME: c = #dlti.dl_spec<i64 = dense<64> : vector<2xi64>, "dlti.stack_alignment" = 128 : i64>
// CHECK-SAME: d = #dlti.dl_spec<index = 32 : i32, "k" = 1 : i64>
// CHECK-SAME: e = #dlti.dl_spec<>
// CHECK-SAME: f = #dlti.map<"k" = 1 : i64>
// CHECK-SAME: g = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"k" = 1 : i32>>
// CHECK-SAME: h = #dlti.dl_entry<index, 64 : i64>
// CHECK-SAME: i = #dlti.dl_entry<"k", 1 : i32>
func.func @f() attributes {
  a = #dlti.dl_spec<#dlti.dl_entry<"dlti.endianness", "little">>,
  b = #dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>>,
  c = #dlti.dl_spec<#dlti.dl_entry<i64, dense<[64, 64]> : vector<2xi64>>, #dlti.dl_entry<"dlti.stack_alignment", 128 : i64>>,
  d = #dlti.dl_spec<index = 32 : i32, #dlti.dl_entry<"k", 1>>,
  e = #dlti.dl_spec<>,
  f = #dlti.map<#dlti.dl_entry<"k", 1>>,
  g = #dlti.target_system_spec<#dlti.dl_entry<"CPU", #dlti.target_device_spec<#dlti.dl_entry<"k", 1 : i32>>>>,
  h = #dlti.dl_entry<index, 64 : i64>,
  i = #dlti.dl_entry<"k", 1 : i32>
} {
  return
}
