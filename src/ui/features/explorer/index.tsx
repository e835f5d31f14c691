export default function View() {
  return <div className="view"><h1>explorer</h1></div>;
}
