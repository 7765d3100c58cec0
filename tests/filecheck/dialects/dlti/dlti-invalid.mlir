// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{repeated DLTI key: "a"}}
module attributes {x.y = #dlti.dl_spec<"a" = 1, "a" = 2>} {}

// -----

// expected-error @below {{repeated DLTI key: "a"}}
module attributes {x.y = #dlti.dl_spec<#dlti.dl_entry<"a", 1>, #dlti.dl_entry<"a", 2>>} {}

// -----

// expected-error @below {{repeated DLTI key: i32}}
module attributes {x.y = #dlti.dl_spec<i32 = 1, #dlti.dl_entry<i32, 2>>} {}

// -----

// expected-error @below {{empty string as DLTI key is not allowed}}
module attributes {x.y = #dlti.dl_spec<"" = 1>} {}

// -----

// expected-error @below {{invalid kind of attribute specified}}
module attributes {x.y = #dlti.dl_spec<1 = 2>} {}
