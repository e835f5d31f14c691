export default function View() {
  return <div className="view"><h1>editor</h1></div>;
}
