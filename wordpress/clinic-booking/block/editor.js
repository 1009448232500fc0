/**
 * The block "Clinic booking" in the editor: a placeholder saying what the page will show, and the block's
 * settings in the sidebar. Plain JavaScript on WordPress's own globals, so it needs no build step. The page
 * itself is rendered by PHP (includes/render.php); the lists of sections, modes and languages come from
 * includes/widget-lists.php through window.clinicBookingEditor.
 */
( function ( wp ) {
	var el = wp.element.createElement;
	var __ = wp.i18n.__;
	var sprintf = wp.i18n.sprintf;
	var blockEditor = wp.blockEditor;
	var components = wp.components;
	var lists = window.clinicBookingEditor || { sections: [], languages: [], defaults: {} };

	var sectionLabels = {
		site: __( "The clinic's site", 'clinic-booking' ),
		treatments: __( 'Treatments and fees', 'clinic-booking' ),
		dentists: __( 'Dentists', 'clinic-booking' ),
		booking: __( 'Booking form', 'clinic-booking' ),
		status: __( 'Booking status lookup', 'clinic-booking' ),
	};

	function chosenSections( value ) {
		return value.split( /[\s,]+/ ).filter( function ( name ) {
			return lists.sections.indexOf( name ) !== -1;
		} );
	}

	function toggled( value, section, on ) {
		var chosen = chosenSections( value ).filter( function ( name ) {
			return name !== section;
		} );
		if ( on ) {
			chosen.push( section );
		}
		// In the widget's order, as the PHP side writes them.
		return lists.sections
			.filter( function ( name ) {
				return chosen.indexOf( name ) !== -1;
			} )
			.join( ' ' );
	}

	function Edit( props ) {
		var attributes = props.attributes;
		var setAttributes = props.setAttributes;
		var sections = chosenSections( attributes.sections || '' );
		var shown = sections.length ? sections : chosenSections( lists.defaults.sections || '' );
		var summary = shown.length
			? shown
					.map( function ( name ) {
						return sectionLabels[ name ];
					} )
					.join( ', ' )
			: __( 'The whole clinic site', 'clinic-booking' );
		var mode = attributes.mode || lists.defaults.mode || 'inline';

		var inspector = el(
			blockEditor.InspectorControls,
			{},
			el(
				components.PanelBody,
				{ title: __( 'What the widget shows', 'clinic-booking' ) },
				el( 'p', {}, __( 'None ticked: the default from Settings > Clinic booking.', 'clinic-booking' ) ),
				lists.sections.map( function ( section ) {
					return el( components.CheckboxControl, {
						key: section,
						label: sectionLabels[ section ] || section,
						checked: sections.indexOf( section ) !== -1,
						onChange: function ( on ) {
							setAttributes( { sections: toggled( attributes.sections || '', section, on ) } );
						},
					} );
				} ),
				el( components.SelectControl, {
					label: __( 'Mode', 'clinic-booking' ),
					value: attributes.mode || '',
					options: [
						{ value: '', label: __( 'Default', 'clinic-booking' ) },
						{ value: 'inline', label: __( 'In the page', 'clinic-booking' ) },
						{ value: 'button', label: __( 'A floating button', 'clinic-booking' ) },
					],
					onChange: function ( value ) {
						setAttributes( { mode: value } );
					},
				} ),
				el( components.SelectControl, {
					label: __( 'Language', 'clinic-booking' ),
					value: attributes.lang || '',
					options: [ { value: '', label: sprintf( __( "The site's (%s)", 'clinic-booking' ), lists.defaults.lang || 'en' ) } ].concat(
						lists.languages.map( function ( lang ) {
							return { value: lang, label: lang };
						} )
					),
					onChange: function ( value ) {
						setAttributes( { lang: value } );
					},
				} )
			)
		);

		var placeholder = el(
			components.Placeholder,
			{
				icon: 'calendar-alt',
				label: __( 'Clinic booking', 'clinic-booking' ),
				instructions:
					mode === 'button'
						? sprintf( __( 'A floating button opens: %s.', 'clinic-booking' ), summary )
						: sprintf( __( 'Shows: %s. The widget itself appears on the published page.', 'clinic-booking' ), summary ),
			}
		);

		return el( 'div', blockEditor.useBlockProps(), inspector, placeholder );
	}

	wp.blocks.registerBlockType( 'clinic-booking/booking', {
		edit: Edit,
		save: function () {
			return null;
		},
	} );
} )( window.wp );
