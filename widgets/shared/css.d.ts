// A stylesheet imported for its effect alone: Vite puts it into the page's CSS once
// (widgets/shared/scaled-frame.css).
declare module '*.css';
