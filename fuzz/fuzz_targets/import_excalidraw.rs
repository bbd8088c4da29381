//! `import_excalidraw`: any bytes through `inkboard_interop::import` as an
//! Excalidraw file: the scene JSON (or the PNG chunk or SVG payload that carries
//! it), its elements, bindings, bound text and groups, and the mapping onto a
//! board. A refused file is an error, never a panic; an import must hold
//! (`assert_import_holds`: saves and loads back stably, a sound loss report, the
//! same result twice).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    inkboard_fuzz::assert_import_holds(data, "fuzz.excalidraw");
});
