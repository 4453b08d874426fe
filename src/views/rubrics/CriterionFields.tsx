import styled from 'styled-components';
import type { CriterionDraft, DraftErrors } from '../../machines/rubricEditor/rubricDraft.ts';
import type { RubricEditorRef } from '../../machines/rubricEditor/rubricEditorMachine.ts';
import { useRubricEditorEvents } from '../../machines/rubricEditor/useRubricEditor.ts';
import {
  CRITERION_CODE_MAX,
  CRITERION_LABEL_MAX,
  LEVEL_DESCRIPTION_MAX,
  LEVEL_LABEL_MAX,
  LEVEL_SCORE_MAX,
  LEVEL_SCORE_MIN,
  RUBRIC_DESCRIPTION_MAX,
  RUBRIC_LEVELS_MAX,
} from '../../schemas/rubrics.ts';
import { Button } from '../components/Button.tsx';
import { FieldError, TextField } from '../components/Field.tsx';
import { TextAreaField } from '../components/TextAreaField.tsx';
import { theme } from '../theme/theme.ts';

const Box = styled.fieldset`
  min-width: 0;
  margin: 0 0 ${theme.space.lg};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  legend {
    padding: 0 ${theme.space.xs};
    font-weight: ${theme.font.weight.bold};
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  align-items: center;
  margin-bottom: ${theme.space.sm};
`;

const Levels = styled.ol`
  margin: 0 0 ${theme.space.md};
  padding: 0;
  list-style: none;
  & > li {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0 ${theme.space.md};
    padding: ${theme.space.sm} 0;
    border-top: 1px solid ${theme.color.border};
  }
  @media (min-width: 768px) {
    & > li {
      grid-template-columns: minmax(0, 2fr) minmax(0, 4fr) 9rem;
    }
    & > li > :last-child {
      grid-column: 1 / -1;
    }
  }
`;

/** The id of a field of the editor, for the error summary's links. */
export const fieldId = (prefix: string, place: string) => `${prefix}-${place.replace(/\./g, '-')}`;

/**
 * One criterion of the rubric being edited: its code, label and description, its levels (label,
 * description, score; lowest first), and buttons to move, add and remove them.
 */
export function CriterionFields({
  editor,
  prefix,
  index,
  count,
  criterion,
  errors,
}: {
  editor: RubricEditorRef;
  prefix: string;
  index: number;
  count: number;
  criterion: CriterionDraft;
  errors: DraftErrors;
}) {
  const on = useRubricEditorEvents(editor);
  const at = `criteria.${index}`;
  const name = criterion.label.trim() || `criterion ${index + 1}`;
  return (
    <Box>
      <legend>Criterion {index + 1}</legend>
      <Row>
        <Button
          type="button"
          $variant="secondary"
          $small
          disabled={index === 0}
          onClick={() => on.moveCriterion(index, -1)}
        >
          Move up <span className="visually-hidden">{name}</span>
        </Button>
        <Button
          type="button"
          $variant="secondary"
          $small
          disabled={index === count - 1}
          onClick={() => on.moveCriterion(index, 1)}
        >
          Move down <span className="visually-hidden">{name}</span>
        </Button>
        <Button type="button" $variant="danger" $small onClick={() => on.removeCriterion(index)}>
          Remove <span className="visually-hidden">{name}</span>
        </Button>
      </Row>
      <TextField
        id={fieldId(prefix, `${at}.code`)}
        label="Code (optional)"
        value={criterion.code}
        maxLength={CRITERION_CODE_MAX}
        error={errors[`${at}.code`]}
        onChange={(e) => on.change({ criterion: index, field: 'code' }, e.target.value)}
      />
      <TextField
        id={fieldId(prefix, `${at}.label`)}
        label="Label"
        value={criterion.label}
        maxLength={CRITERION_LABEL_MAX}
        error={errors[`${at}.label`] ?? errors[at]}
        onChange={(e) => on.change({ criterion: index, field: 'label' }, e.target.value)}
      />
      <TextAreaField
        label="Description (optional)"
        value={criterion.description}
        maxLength={RUBRIC_DESCRIPTION_MAX}
        rows={2}
        error={errors[`${at}.description`]}
        onChange={(e) => on.change({ criterion: index, field: 'description' }, e.target.value)}
      />
      <h4>Levels, lowest first</h4>
      {errors[`${at}.levels`] ? (
        <FieldError id={fieldId(prefix, `${at}.levels`)}>{errors[`${at}.levels`]}</FieldError>
      ) : null}
      <Levels>
        {criterion.levels.map((level, l) => {
          const place = `${at}.levels.${l}`;
          const levelName = `${level.label.trim() || `level ${l + 1}`} of ${name}`;
          return (
            <li key={level.key}>
              <TextField
                id={fieldId(prefix, `${place}.label`)}
                label={`Level ${l + 1} label`}
                value={level.label}
                maxLength={LEVEL_LABEL_MAX}
                error={errors[`${place}.label`]}
                onChange={(e) => on.change({ criterion: index, level: l, field: 'label' }, e.target.value)}
              />
              <TextAreaField
                label={`Level ${l + 1} description (optional)`}
                value={level.description}
                maxLength={LEVEL_DESCRIPTION_MAX}
                rows={2}
                error={errors[`${place}.description`]}
                onChange={(e) => on.change({ criterion: index, level: l, field: 'description' }, e.target.value)}
              />
              <TextField
                id={fieldId(prefix, `${place}.score`)}
                label={`Level ${l + 1} score (${LEVEL_SCORE_MIN}–${LEVEL_SCORE_MAX})`}
                inputMode="numeric"
                value={level.score}
                error={errors[`${place}.score`]}
                onChange={(e) => on.change({ criterion: index, level: l, field: 'score' }, e.target.value)}
              />
              <Row>
                <Button
                  type="button"
                  $variant="secondary"
                  $small
                  disabled={l === 0}
                  onClick={() => on.moveLevel(index, l, -1)}
                >
                  Lower <span className="visually-hidden">{levelName}</span>
                </Button>
                <Button
                  type="button"
                  $variant="secondary"
                  $small
                  disabled={l === criterion.levels.length - 1}
                  onClick={() => on.moveLevel(index, l, 1)}
                >
                  Higher <span className="visually-hidden">{levelName}</span>
                </Button>
                <Button type="button" $variant="danger" $small onClick={() => on.removeLevel(index, l)}>
                  Remove <span className="visually-hidden">{levelName}</span>
                </Button>
              </Row>
            </li>
          );
        })}
      </Levels>
      <Button
        type="button"
        $variant="secondary"
        disabled={criterion.levels.length >= RUBRIC_LEVELS_MAX}
        onClick={() => on.addLevel(index)}
      >
        Add a level <span className="visually-hidden">to {name}</span>
      </Button>
      {criterion.levels.length >= RUBRIC_LEVELS_MAX ? <p>A criterion has at most {RUBRIC_LEVELS_MAX} levels.</p> : null}
    </Box>
  );
}
