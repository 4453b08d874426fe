import styled, { css } from 'styled-components';
import { theme } from '../theme/theme.ts';

type Variant = 'primary' | 'secondary' | 'danger' | 'link';

const buttonStyles = css<{ $variant?: Variant; $small?: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.sm};
  min-height: ${({ $small }) => ($small ? '32px' : '40px')};
  padding: 0 ${({ $small }) => ($small ? theme.space.sm : theme.space.md)};
  border-radius: ${theme.radius.sm};
  border: 1px solid transparent;
  font-weight: ${theme.font.weight.medium};
  letter-spacing: 0.02em;
  cursor: pointer;
  text-decoration: none;
  white-space: nowrap;
  ${({ $variant = 'primary' }) => {
    switch ($variant) {
      case 'primary':
        return css`
          background: ${theme.color.primary};
          color: ${theme.color.primaryText};
          &:hover:not(:disabled) {
            background: ${theme.color.primaryHover};
            color: ${theme.color.primaryText};
          }
        `;
      case 'danger':
        return css`
          background: ${theme.color.danger};
          color: #fff;
          &:hover:not(:disabled) {
            background: ${theme.color.dangerHover};
            color: #fff;
          }
        `;
      case 'link':
        return css`
          background: none;
          color: ${theme.color.primary};
          padding: 0;
          min-height: auto;
          text-decoration: underline;
          &:hover:not(:disabled) {
            color: ${theme.color.primaryHover};
          }
        `;
      default:
        return css`
          background: ${theme.color.surface};
          color: ${theme.color.primary};
          border-color: ${theme.color.primary};
          &:hover:not(:disabled) {
            background: ${theme.color.surfaceAlt};
          }
        `;
    }
  }}
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
`;

/** The portal's button; `$variant` sets its look. */
export const Button = styled.button<{ $variant?: Variant; $small?: boolean }>`
  ${buttonStyles}
`;

/** A link that looks like a button (navigation, not an action). */
export const ButtonLink = styled.a<{ $variant?: Variant; $small?: boolean }>`
  ${buttonStyles}
`;
