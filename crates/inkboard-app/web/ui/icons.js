// icons.js: the toolbar's line icons (24×24, stroked with currentColor), built with
// DOM calls from constant path data.

const NS = 'http://www.w3.org/2000/svg';

const PATHS = {
  select: 'M6 3l13 8.5-6 1.2L10 19z',
  hand: 'M8 13V6a1.5 1.5 0 013 0v5m0-1V4.5a1.5 1.5 0 013 0V10m0 0V6a1.5 1.5 0 013 0v8a6 6 0 01-6 6h-1a6 6 0 01-5-2.7L4.3 14a1.5 1.5 0 012.5-1.7L8 14',
  rect: 'M4 6h16v12H4z',
  rounded: 'M8 6h8a4 4 0 014 4v4a4 4 0 01-4 4H8a4 4 0 01-4-4v-4a4 4 0 014-4z',
  ellipse: 'M3 12a9 6.5 0 1018 0a9 6.5 0 10-18 0',
  diamond: 'M12 3l9 9-9 9-9-9z',
  triangle: 'M12 4l9 16H3z',
  hexagon: 'M7.5 4h9l5 8-5 8h-9l-5-8z',
  parallelogram: 'M8 6h13l-5 12H3z',
  cylinder: 'M5 6.5c0-3.3 14-3.3 14 0v11c0 3.3-14 3.3-14 0zM5 6.5c0 3.3 14 3.3 14 0',
  cloud: 'M7 18a4 4 0 01-.5-8 5.5 5.5 0 0110.6-1.2A4.5 4.5 0 1117.5 18z',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  table: 'M4 5h16v14H4zM4 9.5h16M4 14h16M10 9.5V19',
  end_state: 'M4 12a8 8 0 1016 0a8 8 0 10-16 0M8.5 12a3.5 3.5 0 107 0a3.5 3.5 0 10-7 0M10.5 12a1.5 1.5 0 103 0a1.5 1.5 0 10-3 0',
  note: 'M5 4h14v10l-5 6H5zM14 20v-6h5',
  text: 'M5 7V4h14v3M12 4v16M9 20h6',
  frame: 'M7 3v18M17 3v18M3 7h18M3 17h18',
  connector: 'M5 19L18 6M12 5.5h6.5V12',
  pen: 'M4 20l1.2-4.8L16 4.4 19.6 8 8.8 18.8zM14 6.5l3.5 3.5',
  eraser: 'M14.5 4.5l5 5L10 19H6l-2.5-2.5zM9.5 9.5l5 5M10 19h10',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 8.5a1.5 1.5 0 110 3 1.5 1.5 0 010-3z',
  undo: 'M9 14L4 9l5-5M4 9h10.5a5.5 5.5 0 010 11H11',
  redo: 'M15 14l5-5-5-5M20 9H9.5a5.5 5.5 0 000 11H13',
  export: 'M12 4v11M7.5 10.5L12 15l4.5-4.5M5 19h14',
  lock: 'M8 11V8a4 4 0 018 0v3M6 11h12v9H6zM12 15v2',
  line: 'M5 19L19 5',
  laser: 'M4 20l9-9M16 3l1.2 2.8L20 7l-2.8 1.2L16 11l-1.2-2.8L12 7l2.8-1.2z',
  present: 'M3 4h18v12H3zM12 16v4M8 20h8M10 8l5 2.5-5 2.5z',
  find: 'M10.5 17a6.5 6.5 0 100-13 6.5 6.5 0 000 13zM15.5 15.5L21 21',
};

/** A 20px icon for `name`. */
export function icon(name) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'icon');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', PATHS[name] ?? PATHS.rect);
  svg.append(path);
  return svg;
}
