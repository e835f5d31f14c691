// Tutorial text: paragraphs with `code` in backticks.

export function Prose({ paragraphs }: { paragraphs: readonly string[] }) {
  return (
    <>
      {paragraphs.map((text, i) => (
        <p key={i}>{text.split(/(`[^`]+`)/).map((part, j) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={j}>{part.slice(1, -1)}</code> : part))}</p>
      ))}
    </>
  );
}
