// The editor's Monaco loader is the shared one (the console's body editor uses it too).
export { useMonaco } from '../../lib/monaco/use-monaco';
