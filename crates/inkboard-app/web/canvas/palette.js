// palette.js: the palette's colours, written from inkboard-core's Palette by
// crates/inkboard-app/tests/palette.rs (UPDATE_EXPECT=1 rewrites it): do not edit.
// PALETTE is each name's saturated tone (lines, text, shapes' fills); PASTEL the
// tone a sticky note's fill draws with that name.

export const PALETTE = {
  red: '#e53935',
  blue: '#1e88e5',
  green: '#43a047',
  yellow: '#fdd835',
  orange: '#fb8c00',
  purple: '#8e24aa',
  pink: '#d81b60',
  gray: '#757575',
  black: '#212121',
  white: '#ffffff',
};

export const PASTEL = {
  red: '#ffc4be',
  blue: '#bbdefb',
  green: '#c8eec4',
  yellow: '#fff19c',
  orange: '#ffd8a8',
  purple: '#e1cef5',
  pink: '#f8c6e9',
  gray: '#e4e6ea',
  black: '#212121',
  white: '#ffffff',
};
