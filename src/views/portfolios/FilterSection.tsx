/** The parts of the Filter By dialog's sections: a collapsible section with its count, and a choice. */
import { useId, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

/** One collapsible section of the dialog: its title with how many are chosen, then its choices. */
const Section = styled.section`
  border-bottom: 1px solid ${theme.color.border};
  &:first-of-type {
    border-top: 1px solid ${theme.color.border};
  }
  h3 {
    margin: 0;
    font-size: ${theme.font.size.md};
  }
`;

const SectionToggle = styled.button`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  width: 100%;
  min-height: 48px;
  padding: ${theme.space.sm} ${theme.space.xs};
  border: none;
  background: none;
  font-weight: ${theme.font.weight.bold};
  text-align: left;
  cursor: pointer;
  &:hover {
    background: ${theme.color.surfaceAlt};
  }
  svg {
    flex-shrink: 0;
    transition: transform 150ms ease;
  }
  &[aria-expanded='true'] svg {
    transform: rotate(90deg);
  }
  .chosen {
    margin-left: auto;
    font-size: ${theme.font.size.sm};
    font-weight: ${theme.font.weight.medium};
    color: ${theme.color.primary};
    white-space: nowrap;
  }
`;

const SectionBody = styled.div`
  padding: 0 ${theme.space.xs} ${theme.space.md} ${theme.space.lg};
`;

export const Group = styled.fieldset`
  margin: 0;
  padding: 0;
  border: none;
  min-width: 0;
`;

export const Choices = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(240px, 100%), 1fr));
  gap: ${theme.space.xxs} ${theme.space.md};
`;

const Check = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  min-height: 36px;
  padding: ${theme.space.xs} 0;
  cursor: pointer;
  input {
    width: 20px;
    height: 20px;
    margin: 2px 0 0;
    flex-shrink: 0;
  }
`;

const Glyph = styled.span`
  font-size: 1.15rem;
  line-height: 1;
`;

/** A choice; a symbol (a reaction's emoji) is shown before its meaning, which names the checkbox. */
export function Checkbox({
  label,
  symbol,
  checked,
  onChange,
}: {
  label: string;
  symbol?: string | undefined;
  checked: boolean;
  onChange: () => void;
}) {
  return (
    <Check>
      <input type="checkbox" checked={checked} onChange={onChange} />
      {symbol ? <Glyph aria-hidden="true">{symbol}</Glyph> : null}
      <span>{label}</span>
    </Check>
  );
}

function Chevron() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M5 2l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/** A section that opens and closes (a disclosure): its heading button says how many are chosen. */
export function Collapsible({
  title,
  chosen,
  initiallyOpen,
  level = 3,
  children,
}: {
  title: string;
  chosen: number;
  initiallyOpen: boolean;
  level?: 3 | 4;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const bodyId = useId();
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <Section>
      <Heading>
        <SectionToggle type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <Chevron />
          {title}
          {chosen > 0 ? <span className="chosen">{chosen} selected</span> : null}
        </SectionToggle>
      </Heading>
      <SectionBody id={bodyId} hidden={!open}>
        {children}
      </SectionBody>
    </Section>
  );
}
