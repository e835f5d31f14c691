export default function View() {
  return <div className="view"><h1>managed-fields</h1></div>;
}
