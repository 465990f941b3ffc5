// htm bound to preact: JSX-like templates without a compile step for the templates themselves.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
