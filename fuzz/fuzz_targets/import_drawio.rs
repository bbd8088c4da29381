//! `import_drawio`: any bytes through `inkboard_interop::import` as a draw.io file:
//! the container (`<mxfile>`, compressed pages, `.drawio.svg`'s `content`,
//! `.drawio.png`'s text chunk), the cells and the mapping onto a board. The first
//! byte picks how the rest is given: as it is (0), as a page compressed the way
//! draw.io saves it (1), or as the diagram of a `.drawio.png` in a compressed
//! `zTXt` chunk (2), a compressed `iTXt` (3) or a plain `iTXt` (4), so the mapping
//! and the bounds on the XML (`inkboard_core::xml`) are reached from behind the
//! compression too.
//! A refused file is an error, never a panic; an import must hold
//! (`assert_import_holds`: saves and loads back stably, a sound loss report, the
//! same result twice).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = match mode % 5 {
        0 => rest.to_vec(),
        1 => inkboard_fuzz::drawio_compressed_page(rest),
        2 => inkboard_fuzz::drawio_png(rest, inkboard_fuzz::PngChunk::Ztxt),
        3 => inkboard_fuzz::drawio_png(rest, inkboard_fuzz::PngChunk::Itxt),
        _ => inkboard_fuzz::drawio_png(rest, inkboard_fuzz::PngChunk::PlainItxt),
    };
    inkboard_fuzz::assert_import_holds(&bytes, "fuzz.drawio");
});
